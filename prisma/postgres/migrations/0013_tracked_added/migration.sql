-- CreateIndex
CREATE INDEX "tracked_url_added_at_idx" ON "tracked_url"("added_at");
