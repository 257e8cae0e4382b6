-- CreateIndex
CREATE INDEX "event_created_at_idx" ON "event"("created_at");

-- CreateIndex
CREATE INDEX "webhook_delivery_event_id_idx" ON "webhook_delivery"("event_id");
