/**
 * The node flags every service process runs with: `pnpm start:services` gives them to its children, and
 * `pnpm start:<service>`, each service's `start` and the image's command spell them out
 * (docs/decisions/0040-wasm-liftoff-only.md, docs/decisions/0049-minified-bundles-and-a-tighter-heap.md;
 * launcher/test/unit/service-node-flags.test.ts keeps them alike).
 */
export const SERVICE_NODE_FLAGS = ["--liftoff-only", "--max-semi-space-size=8", "--heap-growing-percent=20"];

/**
 * The environment every service process starts with, beneath its own: two malloc arenas, not glibc's eight per
 * core, each of which a thread that once allocated keeps, and a fixed 128 KiB above which an allocation is mapped
 * on its own and returned when freed: glibc otherwise raises that threshold to the largest such block freed (up to
 * 32 MiB), after which blocks that size stay in the arenas (docs/decisions/0049-minified-bundles-and-a-tighter-heap.md).
 * glibc reads both only at start, so they are set by whatever starts node, like the flags.
 */
export const SERVICE_ENV = { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "131072" };
