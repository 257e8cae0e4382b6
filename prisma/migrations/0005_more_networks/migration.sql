-- History of the six networks beyond Facebook and Pinterest: one nullable column per number (null: the network
-- did not answer fresh then). Added columns: the WITHOUT ROWID table is not rebuilt, and old points read null.

-- AlterTable
ALTER TABLE "observation" ADD COLUMN "reddit_score" BIGINT;
ALTER TABLE "observation" ADD COLUMN "reddit_comments" BIGINT;
ALTER TABLE "observation" ADD COLUMN "reddit_posts" BIGINT;
ALTER TABLE "observation" ADD COLUMN "hackernews_points" BIGINT;
ALTER TABLE "observation" ADD COLUMN "hackernews_comments" BIGINT;
ALTER TABLE "observation" ADD COLUMN "hackernews_stories" BIGINT;
ALTER TABLE "observation" ADD COLUMN "bluesky_likes" BIGINT;
ALTER TABLE "observation" ADD COLUMN "bluesky_reposts" BIGINT;
ALTER TABLE "observation" ADD COLUMN "bluesky_replies" BIGINT;
ALTER TABLE "observation" ADD COLUMN "bluesky_quotes" BIGINT;
ALTER TABLE "observation" ADD COLUMN "bluesky_posts" BIGINT;
ALTER TABLE "observation" ADD COLUMN "vk_count" BIGINT;
ALTER TABLE "observation" ADD COLUMN "ok_count" BIGINT;
ALTER TABLE "observation" ADD COLUMN "tumblr_notes" BIGINT;
