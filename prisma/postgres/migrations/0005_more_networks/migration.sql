-- History of the six networks beyond Facebook and Pinterest: one nullable column per number (null: the network
-- did not answer fresh then). Nullable with no default: adding them rewrites no rows, and old points read null.

-- AlterTable
ALTER TABLE "observation" ADD COLUMN     "reddit_score" BIGINT,
ADD COLUMN     "reddit_comments" BIGINT,
ADD COLUMN     "reddit_posts" BIGINT,
ADD COLUMN     "hackernews_points" BIGINT,
ADD COLUMN     "hackernews_comments" BIGINT,
ADD COLUMN     "hackernews_stories" BIGINT,
ADD COLUMN     "bluesky_likes" BIGINT,
ADD COLUMN     "bluesky_reposts" BIGINT,
ADD COLUMN     "bluesky_replies" BIGINT,
ADD COLUMN     "bluesky_quotes" BIGINT,
ADD COLUMN     "bluesky_posts" BIGINT,
ADD COLUMN     "vk_count" BIGINT,
ADD COLUMN     "ok_count" BIGINT,
ADD COLUMN     "tumblr_notes" BIGINT;
