import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { requestAccountKey } from "../../src/identity/admin-client.ts";
import { startAdminSocket } from "../../src/identity/admin-socket.ts";
import { silentLogger } from "../../src/identity/logger.ts";

describe("admin socket", () => {
  it("creates a missing DATA_DIR (owner-only) and answers there", async () => {
    const root = await mkdtemp(join(tmpdir(), "fit-admin-"));
    const path = join(root, "not", "yet", "gateway-admin.sock");
    const issued = { id: "00000000-0000-4000-8000-000000000002", accountId: "00000000-0000-4000-8000-000000000001", email: "a@example.com", key: "fit_x", created: true };
    const admin = await startAdminSocket({ path, identity: { issueAccountKey: async () => issued }, logger: silentLogger });
    try {
      expect(await requestAccountKey(path, "a@example.com")).toEqual(issued);
      expect((await stat(join(root, "not", "yet"))).mode & 0o777).toBe(0o700);
    } finally {
      await admin.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});
