import { expect, it } from "vitest";
import type { ContractContext } from "../bus-contract.ts";

export const broadcastContract = (ctx: ContractContext): void => {
  it("reaches every live listener on every replica, each once, by the time broadcast resolves", async () => {
    const subject = ctx.names.subject("hint");
    const heard: string[][] = [[], []];
    const live: boolean[][] = [[], []];
    for (const i of [0, 1]) {
      const bus = await ctx.harness.open([]);
      await bus.listen(subject, (data) => heard[i]!.push(data), (up) => live[i]!.push(up));
    }
    expect(live).toEqual([[true], [true]]);
    const sender = await ctx.harness.open([]);
    await sender.broadcast(subject, "drop k1");
    await sender.broadcast(ctx.names.subject("other"), "not for them");
    await expect.poll(() => heard).toEqual([["drop k1"], ["drop k1"]]);
  });

  it("stops hearing once stopped", async () => {
    const subject = ctx.names.subject("stop");
    const bus = await ctx.harness.open([]);
    const heard: string[] = [];
    const listening = await bus.listen(subject, (data) => heard.push(data), () => undefined);
    await bus.broadcast(subject, "one");
    await expect.poll(() => heard).toEqual(["one"]);
    await listening.stop();
    await bus.broadcast(subject, "two");
    await bus.broadcast(subject, "three");
    expect(heard).toEqual(["one"]);
  });
};
