import { LRUCache } from "lru-cache";
import type { NetworkId } from "../../lib/counts/all-networks.ts";
import type { BulkStore } from "../../lib/store/bulk.ts";

/**
 * Which networks each bulk job asks (null: a v1 job): read once per job and process, since it never
 * changes, so counting a URL costs no extra query.
 */
export class JobNetworks {
  private readonly known = new LRUCache<string, { networks: NetworkId[] | null }>({ max: 10_000 });

  constructor(private readonly bulk: Pick<BulkStore, "networksOf">) {}

  /** Undefined when the job is gone (deleted past retention, or never existed). */
  async of(jobId: string): Promise<NetworkId[] | null | undefined> {
    const held = this.known.get(jobId);
    if (held) return held.networks;
    const networks = await this.bulk.networksOf(jobId);
    if (networks !== undefined) this.known.set(jobId, { networks });
    return networks;
  }
}
