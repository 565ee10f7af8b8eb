import preact from "@preact/preset-vite";
import { defineConfig } from "vite";

// Hashed file names under assets/: the gateway serves them as immutable and index.html as no-cache.
export default defineConfig({
  plugins: [preact()],
  build: { target: "es2022", assetsDir: "assets", modulePreload: { polyfill: false } },
  server: { proxy: { "/api": "http://127.0.0.1:3000" } },
});
