-- Search's names that start with the query (decision 0015) are read in folded order up to 200.
-- With the default statistics the planner misjudged how many names start with a prefix (190 for
-- 828 artists starting with "love", 76 for 1,593 tracks starting with "tiger") and, below 200,
-- chose a bitmap scan of every match and a sort over the index scan that stops at 200: 2-4 ms
-- instead of 0.8 for an artist search (bench/README.md, Search). A finer histogram of the folded
-- names makes the estimates right (826 for 828). It takes effect at the tables' next ANALYZE
-- (autovacuum's, or by hand): an ANALYZE in this transaction still reads the old targets.
ALTER INDEX "tracks_name_fold_prefix_idx" ALTER COLUMN 1 SET STATISTICS 1000;
--> statement-breakpoint
ALTER INDEX "albums_name_fold_prefix_idx" ALTER COLUMN 1 SET STATISTICS 1000;
--> statement-breakpoint
ALTER INDEX "artists_name_fold_prefix_idx" ALTER COLUMN 1 SET STATISTICS 1000;
