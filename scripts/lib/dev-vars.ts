import { existsSync, readFileSync } from "node:fs";

/** A value from the local .dev.vars file that `npm start` writes, or undefined. */
export function readDevVar(name: string, path = ".dev.vars"): string | undefined {
  if (!existsSync(path)) return undefined;
  for (const line of readFileSync(path, "utf8").split("\n")) {
    const match = /^\s*([A-Z0-9_]+)\s*=\s*(.*)\s*$/.exec(line);
    if (match?.[1] === name) return match[2]?.replace(/^"(.*)"$/, "$1");
  }
  return undefined;
}
