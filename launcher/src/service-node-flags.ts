/**
 * The node flags every service process runs with: `pnpm start:services` gives them to its children, and
 * `pnpm start:<service>`, each service's `start` and the image's command spell them out
 * (docs/decisions/0040-wasm-liftoff-only.md; launcher/test/unit/service-node-flags.test.ts keeps them alike).
 */
export const SERVICE_NODE_FLAGS = ["--liftoff-only", "--max-semi-space-size=8"];
