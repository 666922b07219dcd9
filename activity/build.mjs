// Builds the Activity's script: src/activity.js with Discord's Embedded App SDK, bundled by
// esbuild into bot/web/static/activity.js, which the bot serves and git keeps.
//
//   npm ci && node build.mjs          # (in activity/) write the bundle
//   npm ci && node build.mjs --check  # fail if the committed bundle is not its source's
//
// The versions are pinned by package-lock.json, so the same source builds the same bytes.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const target = here("../bot/web/static/activity.js");
const check = process.argv.includes("--check");

const result = await build({
  entryPoints: [here("src/activity.js")],
  bundle: true,
  format: "iife",
  target: "es2020",
  minify: true,
  legalComments: "eof",
  charset: "utf8",
  outfile: target,
  write: !check,
  logLevel: "warning",
});

if (check) {
  const built = result.outputFiles[0].text;
  let committed = "";
  try {
    committed = readFileSync(target, "utf8");
  } catch (error) {
    committed = "";
  }
  if (built !== committed) {
    console.error(
      "bot/web/static/activity.js is not the bundle of activity/src: run `npm ci && node build.mjs` in activity/ and commit it",
    );
    process.exit(1);
  }
  console.log("bot/web/static/activity.js matches its source");
}
