-- CreateTable
CREATE TABLE "audit_event" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "account_id" TEXT NOT NULL,
    "time" DATETIME NOT NULL,
    "actor_type" TEXT NOT NULL,
    "actor_id" TEXT,
    "actor_label" TEXT,
    "action" TEXT NOT NULL,
    "ip" TEXT,
    "user_agent" TEXT,
    "changes" TEXT NOT NULL,
    CONSTRAINT "audit_event_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "audit_event_account_id_time_id_idx" ON "audit_event"("account_id", "time" DESC, "id");

-- CreateIndex
CREATE INDEX "audit_event_time_idx" ON "audit_event"("time");
