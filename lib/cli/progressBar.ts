/** A one-line progress bar on stderr; in a non-TTY (CI logs) a line every 10%. */
export function createProgressBar(stream: NodeJS.WriteStream, label: string) {
  let lastDecile = -1;
  let lastDraw = 0;
  return {
    update(done: number, total: number, detail = "") {
      const fraction = total === 0 ? 1 : done / total;
      if (stream.isTTY) {
        const now = Date.now();
        if (now - lastDraw < 80 && done < total) return;
        lastDraw = now;
        const width = 30;
        const filled = Math.round(fraction * width);
        stream.write(`\r${label} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${total} ${detail}   `);
      } else {
        const decile = Math.floor(fraction * 10);
        if (decile !== lastDecile) {
          lastDecile = decile;
          stream.write(`${label}: ${done}/${total} (${Math.round(fraction * 100)}%) ${detail}\n`);
        }
      }
    },
    finish() {
      if (stream.isTTY) stream.write("\n");
    },
  };
}
