-- PostgreSQL only (SQLite runs the same steps in one synchronous transaction): a batch of one account's counted
-- bulk URLs completed in one statement, where it took seven round trips (BEGIN, lock, usage row, reserve, store,
-- advance, COMMIT), the bulk worker's busiest queries.
--
-- Locks are taken in the order every writer takes them: the URLs by id, the account's usage row, the jobs by id.
-- Under READ COMMITTED a second worker locking the same URLs waits for the first to commit, re-checks
-- `completed_at IS NULL` and finds them done: each URL is answered and counted once.
--
-- Answers the URLs still open and how many of them the quota granted. Of the open URLs, the first `granted` in
-- the order given (a URL listed twice counts once) are stored with their results (`results`: a JSON array of
-- texts, one per id) and counted on their jobs.
CREATE FUNCTION sharecount_complete_bulk_urls(
  url_ids int[], results json, usage_account text, usage_day text, quota int, completed bigint,
  OUT open_ids int[], OUT granted int
) LANGUAGE plpgsql AS $$
DECLARE
  job_ids text[];
  job_counts int[];
BEGIN
  SELECT coalesce(array_agg(l.id ORDER BY l.id), '{}') INTO open_ids
    FROM (SELECT b.id FROM bulk_url b WHERE b.id = ANY(url_ids) AND b.completed_at IS NULL ORDER BY b.id FOR UPDATE) l;
  granted := 0;
  IF cardinality(open_ids) = 0 THEN
    RETURN;
  END IF;
  INSERT INTO daily_usage (account_id, day, queries) VALUES (usage_account, usage_day, 0) ON CONFLICT (account_id, day) DO NOTHING;
  SELECT GREATEST(LEAST(cardinality(open_ids), quota - d.queries), 0) INTO granted
    FROM daily_usage d WHERE d.account_id = usage_account AND d.day = usage_day FOR UPDATE;
  -- The row deleted between the two statements: nothing is granted (NULL would lift the LIMIT below).
  IF NOT FOUND OR granted = 0 THEN
    granted := 0;
    RETURN;
  END IF;
  UPDATE daily_usage d SET queries = d.queries + granted WHERE d.account_id = usage_account AND d.day = usage_day;
  WITH firsts AS (
    SELECT u.id, min(u.n) AS n FROM unnest(url_ids) WITH ORDINALITY AS u(id, n)
    WHERE u.id = ANY(open_ids) GROUP BY u.id ORDER BY min(u.n) LIMIT granted
  ), stored AS (
    UPDATE bulk_url b SET result = r.value, completed_at = completed
    FROM firsts f JOIN json_array_elements_text(results) WITH ORDINALITY AS r(value, n) ON r.n = f.n
    WHERE b.id = f.id
    RETURNING b.job_id
  )
  SELECT array_agg(s.job_id ORDER BY s.job_id), array_agg(s.n ORDER BY s.job_id) INTO job_ids, job_counts
    FROM (SELECT stored.job_id, count(*)::int AS n FROM stored GROUP BY stored.job_id) s;
  -- The lock the UPDATE below takes anyway, in id order; it does not hold back foreign-key checks.
  PERFORM 1 FROM bulk_job j WHERE j.id = ANY(job_ids) ORDER BY j.id FOR NO KEY UPDATE;
  UPDATE bulk_job j SET urls_completed = j.urls_completed + a.n,
      completed_at = CASE WHEN j.urls_completed + a.n >= j.urls_queued THEN completed ELSE NULL END
    FROM unnest(job_ids, job_counts) AS a(id, n) WHERE j.id = a.id;
END;
$$;
