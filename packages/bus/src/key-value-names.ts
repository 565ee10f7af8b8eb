import { AppError } from "@fit/contracts";

// What NATS allows (its KV client checks the same), enforced by both buses so nothing works in memory only.
const BUCKET = /^[-\w]+$/;
const KEY = /^[-/=.\w]+$/;

export const checkBucket = (bucket: string): void => {
  if (!BUCKET.test(bucket)) throw new AppError("validation", `invalid key-value bucket name: ${bucket}`);
};

export const checkKey = (key: string): void => {
  if (key.startsWith(".") || key.endsWith(".") || !KEY.test(key)) throw new AppError("validation", `invalid key: ${key}`);
};
