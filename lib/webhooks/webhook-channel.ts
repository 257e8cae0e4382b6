import type { AlertChannel } from "../alerts/alerts.ts";
import type { EventWriter } from "../alerts/event-store.ts";
import type { StoredEvent } from "../alerts/alert-types.ts";
import type { DeliveryStore } from "./delivery-store.ts";
import type { EndpointStore } from "./endpoint-store.ts";

/**
 * Webhooks as an alert channel: one delivery per enabled endpoint listening for the event's type, written in
 * the event's transaction. A test event goes only to the endpoint it tests.
 */
export class WebhookChannel implements AlertChannel {
  constructor(
    private readonly endpoints: EndpointStore,
    private readonly deliveries: DeliveryStore,
  ) {}

  async fanOut(db: EventWriter, event: StoredEvent, now: number): Promise<void> {
    if (event.type === "webhook.test") {
      const { endpoint_id } = event.data as StoredEvent<"webhook.test">["data"];
      await this.deliveries.insert(db, event.id, [endpoint_id], now);
      return;
    }
    const listening = await this.endpoints.listening(db, event.accountId, event.type);
    await this.deliveries.insert(db, event.id, listening.map((e) => e.id), now);
  }
}
