// Reading a password for scripts/userCreate.ts without ever echoing it.

/** Everything on standard input, minus one trailing newline (what `echo` and most secret stores add). */
export async function readPasswordFromStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}

/** Asks twice on the terminal with echo off; refuses to run without a terminal. */
export async function readPasswordFromTerminal(): Promise<string> {
  if (!process.stdin.isTTY)
    throw new PasswordInputError("No terminal to ask for the password on: pass --password-stdin.");
  const first = await promptHidden("Password: ");
  const second = await promptHidden("Password again: ");
  if (first !== second) throw new PasswordInputError("The two passwords differ; nothing was created.");
  return first;
}

export class PasswordInputError extends Error {}

function promptHidden(prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    process.stdout.write(prompt);
    stdin.setRawMode(true);
    stdin.resume();
    let typed = "";
    const finish = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off("data", onData);
      process.stdout.write("\n");
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (data: Buffer) => {
      for (const char of data.toString("utf8")) {
        if (char === "\r" || char === "\n") return finish();
        if (char === "\u0003") return finish(new PasswordInputError("Cancelled."));
        if (char === "\u007f" || char === "\b") typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    stdin.on("data", onData);
  });
}
