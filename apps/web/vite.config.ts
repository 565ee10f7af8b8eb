/// <reference types="node" />
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import preact from "@preact/preset-vite";
import { defineConfig, type Plugin } from "vite";

/** Brotli and gzip copies beside each script and stylesheet, which the gateway sends to browsers that take them. */
const precompress = (): Plugin => ({
  name: "fit-precompress",
  apply: "build",
  writeBundle(options, bundle) {
    for (const file of Object.keys(bundle).filter((name) => /\.(js|css)$/.test(name))) {
      const path = join(options.dir ?? "dist", file);
      const content = readFileSync(path);
      writeFileSync(`${path}.br`, brotliCompressSync(content));
      writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
    }
  },
});

// Hashed file names under assets/: the gateway serves them as immutable and index.html as no-cache.
export default defineConfig({
  plugins: [preact(), precompress()],
  build: { target: "es2022", assetsDir: "assets", modulePreload: { polyfill: false } },
  server: { proxy: { "/api": "http://127.0.0.1:3000" } },
});
