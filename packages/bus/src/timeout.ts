import { AppError } from "@fit/contracts";

/** Stop waiting after `ms` with AppError("timeout"); like a NATS request, the work itself is not cancelled. */
export const withTimeout = <T>(work: Promise<T>, ms: number, message: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AppError("timeout", message)), ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
};
