import { isRetryableConflict } from "./normalize.server";

export type ConflictRetryOptions = {
  attempts?: number;
  /** Told of each conflict that is retried (for the log): a conflict is normal under load, but should be rare. */
  onRetry?: (error: unknown, attempt: number) => void;
};

/**
 * Runs `work` (a whole transaction) again when the database aborted it for a deadlock or a serialization
 * failure, up to `attempts` times, after a short random pause that grows with each attempt, so the
 * transactions that collided do not collide again in step. Any other error, or the last conflict, is thrown.
 */
export async function retryOnConflict<T>(work: () => Promise<T>, { attempts = 5, onRetry }: ConflictRetryOptions = {}): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isRetryableConflict(error)) throw error;
      onRetry?.(error, attempt);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * 2 ** attempt));
    }
  }
}
