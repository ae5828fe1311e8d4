/**
 * Requests a screen's machine starts, one at a time: `run` hands a request an abort signal and
 * passes its answer on unless it was aborted meanwhile (a given-up call stays silent, spec §8);
 * `abort` gives up the one in flight (a cancel button, the screen closing).
 */
export interface MachineRequests {
  run<T>(
    request: (signal: AbortSignal) => Promise<T>,
    done: (result: T) => void,
    failed: (error: unknown) => void,
  ): void;
  abort(): void;
}

export function machineRequests(): MachineRequests {
  let inFlight: AbortController | null = null;
  return {
    run(request, done, failed) {
      const controller = new AbortController();
      inFlight = controller;
      request(controller.signal).then(
        (result) => {
          if (controller.signal.aborted) return;
          inFlight = null;
          done(result);
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          inFlight = null;
          failed(error);
        },
      );
    },
    abort() {
      inFlight?.abort();
      inFlight = null;
    },
  };
}
