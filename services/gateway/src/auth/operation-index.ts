import { operationList, type Method, type Operation } from "@fit/contracts";

interface Matcher {
  method: Method;
  pattern: RegExp;
  op: Operation;
}

const toPattern = (path: string) =>
  new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:(\w+)/g, "[^/]+")}$`);

/**
 * Finds the contract operation a request is for. The gateway forwards nothing that is not in the contracts,
 * so a route missing from /openapi.json cannot be reached either.
 */
export const createOperationIndex = (ops: readonly Operation[] = operationList) => {
  const matchers: Matcher[] = ops.map((op) => ({ method: op.method, pattern: toPattern(op.path), op }));
  return (method: string, url: string): Operation | undefined => {
    const path = url.split("?", 1)[0] ?? url;
    return matchers.find((m) => m.method === method && m.pattern.test(path))?.op;
  };
};

/** The `/api/<resource>` prefixes each service serves, derived from the contracts. */
export const prefixesByService = (ops: readonly Operation[] = operationList): Map<Operation["service"], string[]> => {
  const result = new Map<Operation["service"], string[]>();
  for (const op of ops) {
    const prefix = op.path.split("/").slice(0, 3).join("/");
    const list = result.get(op.service) ?? [];
    if (!list.includes(prefix)) list.push(prefix);
    result.set(op.service, list);
  }
  return result;
};
