// `pnpm fit`: runs the built client in this process, building it first only when it is missing or one of the
// files it was built from (listed by build.mjs) changed since: a build on every call cost more than the command.
import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";

const bundle = join(import.meta.dirname, "dist", "fit.js");

const isStale = () => {
  try {
    const built = statSync(bundle).mtimeMs;
    const inputs = JSON.parse(readFileSync(join(import.meta.dirname, "dist", "fit.inputs.json"), "utf8"));
    return inputs.some((input) => statSync(input, { throwIfNoEntry: false })?.mtimeMs > built);
  } catch {
    return true;
  }
};

if (isStale()) execFileSync(process.execPath, [join(import.meta.dirname, "build.mjs")], { stdio: "inherit" });
await import(pathToFileURL(bundle).href);
