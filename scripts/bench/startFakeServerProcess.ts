import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import path from "node:path";
import readline from "node:readline";
import { z } from "zod";

/** The fake server process's first stdout line (scripts/bench/fakeServerProcess.ts). */
const serverAddressSchema = z.object({ url: z.string(), control: z.string() });

export type FakeServerProcess = { url: string; control: string; child: ChildProcess; stop: () => void };

/**
 * Starts the fake OpenAI server in a process of its own, answering every call after `latencyMs`, so that a
 * benchmark measures the engine's CPU and memory and not the server's. `root` is the project's root.
 */
export async function startFakeServerProcess(root: string, latencyMs: number): Promise<FakeServerProcess> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(root, "scripts/bench/fakeServerProcess.ts"), String(latencyMs)],
    { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
  );
  const output = child.stdout;
  if (!output) throw new Error("the fake server has no output");
  const line = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: output }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`the fake server exited (${code}) before it listened`)));
  });
  return { ...serverAddressSchema.parse(JSON.parse(line)), child, stop: () => child.kill("SIGTERM") };
}

/**
 * GETs JSON from the fake server's control URL (its stats, a reset). node:http rather than fetch: the global
 * fetch would load undici into the measured process, which the engine never does.
 */
export function getJson<T>(url: string, schema: z.ZodType<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (response) => {
        let body = "";
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () => {
          try {
            resolve(schema.parse(JSON.parse(body)));
          } catch (error) {
            reject(error);
          }
        });
      })
      .on("error", reject);
  });
}
