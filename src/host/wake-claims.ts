// Which client runs the wake run of a scope now (issue 33): of the workers that all subscribe to a thread's wakes,
// the first to claim it runs the agent; the others see the claim taken and leave the events to it.

/** The holder of a claim: any object that stands for one client. */
type Holder = object;

export class WakeClaims {
  readonly #lapseMs: number;
  readonly #claims = new Map<string, { holder: Holder; lapsesAt: number }>();

  constructor(lapseMs: number) {
    this.#lapseMs = lapseMs;
  }

  /** True when `holder` now holds the scope's claim: it was free, lapsed, or already its own. */
  claim(scopeKey: string, holder: Holder, now = Date.now()): boolean {
    const current = this.#claims.get(scopeKey);
    if (current && current.holder !== holder && current.lapsesAt > now) return false;
    this.#claims.set(scopeKey, { holder, lapsesAt: now + this.#lapseMs });
    return true;
  }

  release(scopeKey: string, holder: Holder): void {
    if (this.#claims.get(scopeKey)?.holder === holder) this.#claims.delete(scopeKey);
  }

  /** Releases every claim of `holder` (a client that left); returns their scopes. */
  releaseAll(holder: Holder): string[] {
    const released: string[] = [];
    for (const [scopeKey, claim] of this.#claims) {
      if (claim.holder !== holder) continue;
      this.#claims.delete(scopeKey);
      released.push(scopeKey);
    }
    return released;
  }
}
