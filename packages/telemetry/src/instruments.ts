import { metrics, type Meter } from "@opentelemetry/api";

/**
 * Instruments built on first use and again whenever the global meter provider changes. The metrics API has no
 * proxy provider (unlike tracing), so instruments made before startTelemetry registers the SDK would stay
 * no-ops for good; made lazily they pick it up. Without an SDK they are the API's no-ops, which cost a call.
 */
export const lazyInstruments = <T>(scope: string, build: (meter: Meter) => T): (() => T) => {
  let provider: unknown;
  let built: T | undefined;
  return () => {
    const current = metrics.getMeterProvider();
    if (built === undefined || current !== provider) {
      provider = current;
      built = build(current.getMeter(scope));
    }
    return built;
  };
};
