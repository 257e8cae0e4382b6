import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env.ts";

/** The message parseEnv throws for `source`. */
function envError(source: Record<string, string | undefined>): string {
  try {
    parseEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(source)} to be refused`);
}

describe("parseEnv defaults", () => {
  it("starts with no configuration at all, on the sandbox", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.HOST).toBe("0.0.0.0");
    expect(env.DATABASE_URL).toBe("file:./data/sharecount.db");
    expect(env.QUOTA_TIMEZONE).toBe("UTC");
    expect(env.SHARECOUNT_NETWORKS).toBe("sandbox");
    expect(env.COUNT_CACHE_TTL_SECONDS).toBe(1200);
    expect(env.BULK_MAX_BODY_BYTES).toBe(24 * 1024 * 1024);
    expect(env.FACEBOOK_GRAPH_URL).toMatch(/^https:\/\/graph\.facebook\.com\//);
  });

  it("goes live when a Facebook token is set, unless told otherwise", () => {
    expect(parseEnv({ FACEBOOK_ACCESS_TOKEN: "123|secret" }).SHARECOUNT_NETWORKS).toBe("live");
    expect(parseEnv({ FACEBOOK_ACCESS_TOKEN: "123|secret", SHARECOUNT_NETWORKS: "sandbox" }).SHARECOUNT_NETWORKS).toBe(
      "sandbox",
    );
  });

  it("seeds the demo account with the sandbox networks only, unless SHARECOUNT_DEMO says otherwise", () => {
    expect(parseEnv({}).SHARECOUNT_DEMO).toBe("true");
    expect(parseEnv({ FACEBOOK_ACCESS_TOKEN: "123|secret" }).SHARECOUNT_DEMO).toBe("false");
    expect(parseEnv({ FACEBOOK_ACCESS_TOKEN: "123|secret", SHARECOUNT_DEMO: "true" }).SHARECOUNT_DEMO).toBe("true");
    expect(parseEnv({ SHARECOUNT_DEMO: "false" }).SHARECOUNT_DEMO).toBe("false");
  });

  it("reads set values", () => {
    const env = parseEnv({
      PORT: "8080",
      DATABASE_URL: "file:/tmp/x.db",
      QUOTA_TIMEZONE: "Europe/Berlin",
      FACEBOOK_GRAPH_URL: "https://graph.example.com/v1/",
    });
    expect(env.PORT).toBe(8080);
    expect(env.DATABASE_URL).toBe("file:/tmp/x.db");
    expect(env.QUOTA_TIMEZONE).toBe("Europe/Berlin");
    expect(env.FACEBOOK_GRAPH_URL).toBe("https://graph.example.com/v1");
  });

  it("treats empty strings as unset", () => {
    const env = parseEnv({
      PORT: "",
      DATABASE_URL: "",
      QUOTA_TIMEZONE: "",
      FACEBOOK_ACCESS_TOKEN: "",
      SHARECOUNT_NETWORKS: "",
      FACEBOOK_GRAPH_URL: "",
      BULK_MAX_BODY_BYTES: "",
    });
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBe("file:./data/sharecount.db");
    expect(env.QUOTA_TIMEZONE).toBe("UTC");
    expect(env.SHARECOUNT_NETWORKS).toBe("sandbox");
    expect(env.FACEBOOK_ACCESS_TOKEN).toBeUndefined();
    expect(env.BULK_MAX_BODY_BYTES).toBe(24 * 1024 * 1024);
  });

  it("treats whitespace-only values as unset (a port of 0 would be a random port)", () => {
    expect(parseEnv({ PORT: " " }).PORT).toBe(3000);
    expect(parseEnv({ QUOTA_TIMEZONE: "  " }).QUOTA_TIMEZONE).toBe("UTC");
  });
});

describe("parseEnv errors name the bad variable", () => {
  it.each([
    [{ PORT: "abc" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ PORT: "-1" }, "PORT"],
    [{ PORT: "80.5" }, "PORT"],
    [{ PORT: "0x50" }, "PORT"],
    [{ PORT: "1e3" }, "PORT"],
    [{ QUOTA_TIMEZONE: "Mars/Base" }, "QUOTA_TIMEZONE"],
    [{ SHARECOUNT_NETWORKS: "live" }, "FACEBOOK_ACCESS_TOKEN"],
    [{ SHARECOUNT_NETWORKS: "bogus" }, "SHARECOUNT_NETWORKS"],
    [{ FACEBOOK_GRAPH_URL: "notaurl" }, "FACEBOOK_GRAPH_URL"],
    [{ FACEBOOK_GRAPH_URL: "ftp://graph.example.com" }, "FACEBOOK_GRAPH_URL"],
    [{ PINTEREST_COUNT_URL: "notaurl" }, "PINTEREST_COUNT_URL"],
    [{ COUNT_CACHE_TTL_SECONDS: "5000" }, "COUNT_CACHE_TTL_SECONDS"],
    [{ BULK_MAX_BODY_BYTES: "100" }, "BULK_MAX_BODY_BYTES"],
  ])("%j → names %s", (source, name) => {
    const message = envError(source);
    expect(message).toMatch(new RegExp(`^\\s*${name}: `, "m"));
  });

  it("explains live without a token", () => {
    expect(envError({ SHARECOUNT_NETWORKS: "live" })).toMatch(/FACEBOOK_ACCESS_TOKEN: .*SHARECOUNT_NETWORKS=live/);
  });

  it("names every bad variable at once, and only those", () => {
    const message = envError({ PORT: "abc", QUOTA_TIMEZONE: "Mars/Base", DATABASE_URL: "file:/tmp/ok.db" });
    expect(message).toMatch(/^\s*PORT: /m);
    expect(message).toMatch(/^\s*QUOTA_TIMEZONE: /m);
    expect(message).not.toMatch(/DATABASE_URL/);
  });
});

describe("DATABASE_URL", () => {
  it("accepts SQLite file: URLs and PostgreSQL URLs", () => {
    for (const url of [
      "file:./data/x.db",
      "postgresql://postgres@127.0.0.1:5432/sharecount",
      "postgres://user:pw@db.internal/sharecount?schema=app",
    ]) {
      expect(parseEnv({ DATABASE_URL: url }).DATABASE_URL).toBe(url);
    }
  });

  it("refuses anything else, naming both kinds", () => {
    expect(envError({ DATABASE_URL: "mysql://db/x" })).toMatch(/^\s*DATABASE_URL: .*file:.*postgresql:\/\//m);
    expect(envError({ DATABASE_URL: "./data/x.db" })).toMatch(/^\s*DATABASE_URL: /m);
  });
});

describe("REDIS_URL", () => {
  const pg = "postgresql://postgres@127.0.0.1:5432/sharecount";

  it("switches on with PostgreSQL, with its prefix and the bulk lock", () => {
    const env = parseEnv({ DATABASE_URL: pg, REDIS_URL: "redis://:pw@cache.internal:6379/2", BULK_LOCK_MS: "5000" });
    expect(env).toMatchObject({ REDIS_URL: "redis://:pw@cache.internal:6379/2", REDIS_PREFIX: "sharecount", BULK_LOCK_MS: 5000 });
    expect(parseEnv({ DATABASE_URL: pg, REDIS_URL: "rediss://cache.internal" }).REDIS_URL).toBe("rediss://cache.internal");
    expect(parseEnv({}).REDIS_URL).toBeUndefined();
  });

  it("is refused with SQLite (Redis is for several processes, SQLite for one)", () => {
    expect(envError({ REDIS_URL: "redis://127.0.0.1:6379" })).toMatch(/^\s*REDIS_URL: needs DATABASE_URL to be PostgreSQL/m);
  });

  it("refuses other schemes, prefixes Redis keys cannot carry, and locks under a second", () => {
    expect(envError({ DATABASE_URL: pg, REDIS_URL: "http://127.0.0.1:6379" })).toMatch(/^\s*REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL/m);
    expect(envError({ REDIS_PREFIX: "a b" })).toMatch(/^\s*REDIS_PREFIX: /m);
    expect(envError({ BULK_LOCK_MS: "500" })).toMatch(/^\s*BULK_LOCK_MS: /m);
  });
});

describe("REQUEST_LOG and REQUEST_LOG_DAYS", () => {
  it("log requests for 30 days by default; the switch is on or off, the days 1 to 3650", () => {
    expect(parseEnv({})).toMatchObject({ REQUEST_LOG: "on", REQUEST_LOG_DAYS: 30 });
    expect(parseEnv({ REQUEST_LOG: "off", REQUEST_LOG_DAYS: "7" })).toMatchObject({ REQUEST_LOG: "off", REQUEST_LOG_DAYS: 7 });
    expect(envError({ REQUEST_LOG: "false" })).toMatch(/^\s*REQUEST_LOG: must be on or off/m);
    for (const days of ["0", "3651", "1e2", "-1"]) expect(envError({ REQUEST_LOG_DAYS: days })).toMatch(/^\s*REQUEST_LOG_DAYS: /m);
  });
});

describe("TRUSTED_PROXIES", () => {
  it("is a list of addresses and ranges, empty by default", () => {
    expect(parseEnv({}).TRUSTED_PROXIES).toEqual([]);
    expect(parseEnv({ TRUSTED_PROXIES: "10.0.0.0/8, 192.0.2.10" }).TRUSTED_PROXIES).toEqual(["10.0.0.0/8", "192.0.2.10"]);
    expect(envError({ TRUSTED_PROXIES: "10.0.0.0/8, lb.internal" })).toMatch(/^\s*TRUSTED_PROXIES: /m);
  });
});

describe("SHARECOUNT_PUBLIC_URL", () => {
  const github = { AUTH_GITHUB_ID: "id", AUTH_GITHUB_SECRET: "secret" };

  it("is the dashboard's origin, with or without a trailing slash", () => {
    expect(parseEnv({ SHARECOUNT_PUBLIC_URL: "https://Sharecount.Example.com/" }).SHARECOUNT_PUBLIC_URL).toBe("https://sharecount.example.com");
    expect(parseEnv({ SHARECOUNT_PUBLIC_URL: "http://10.0.0.5:8080" }).SHARECOUNT_PUBLIC_URL).toBe("http://10.0.0.5:8080");
    expect(parseEnv({}).SHARECOUNT_PUBLIC_URL).toBeUndefined();
  });

  it("refuses a path, a query, credentials and other schemes", () => {
    for (const url of ["https://example.com/dashboard", "https://example.com/?x=1", "https://u:p@example.com", "ftp://example.com", "example.com"]) {
      expect(envError({ SHARECOUNT_PUBLIC_URL: url }), url).toMatch(/^\s*SHARECOUNT_PUBLIC_URL: /m);
    }
  });

  it("is required with GitHub or Google sign-in, whose redirect URIs are built from it", () => {
    expect(envError(github)).toMatch(/^\s*SHARECOUNT_PUBLIC_URL: is required with GitHub or Google sign-in/m);
    expect(envError({ AUTH_GOOGLE_ID: "id", AUTH_GOOGLE_SECRET: "secret" })).toMatch(/^\s*SHARECOUNT_PUBLIC_URL: /m);
    expect(parseEnv({ ...github, SHARECOUNT_PUBLIC_URL: "https://sharecount.example.com" }).AUTH_GITHUB_ID).toBe("id");
  });

  it("is the one setting: Auth.js's AUTH_URL and NEXTAUTH_URL are refused unless they are what it derives", () => {
    expect(envError({ AUTH_URL: "https://other.example.com" })).toMatch(/^\s*AUTH_URL: is set from SHARECOUNT_PUBLIC_URL/m);
    expect(envError({ NEXTAUTH_URL: "https://other.example.com" })).toMatch(/^\s*NEXTAUTH_URL: /m);
    expect(parseEnv({ SHARECOUNT_PUBLIC_URL: "https://a.example.com", AUTH_URL: "https://a.example.com/api/auth" }).AUTH_URL).toBe(
      "https://a.example.com/api/auth",
    );
  });
});

describe("tracked URLs and history", () => {
  it("defaults to half of each budget for refreshes, the issue's cadence and 30 days of hourly points", () => {
    const env = parseEnv({});
    expect(env.REFRESH_BUDGET_SHARE).toBe(0.5);
    expect([env.REFRESH_YOUNG_HOURS, env.REFRESH_YOUNG_EVERY_MINUTES, env.REFRESH_MIDDLE_DAYS, env.REFRESH_MIDDLE_EVERY_HOURS, env.REFRESH_OLD_EVERY_HOURS]).toEqual([24, 60, 30, 24, 168]);
    expect(env.HISTORY_HOURLY_DAYS).toBe(30);
    expect(env.SITEMAP_ALLOW_PRIVATE_HOSTS).toBe(false);
    expect(parseEnv({ REFRESH_BUDGET_SHARE: "0.25", SITEMAP_ALLOW_PRIVATE_HOSTS: "true" })).toMatchObject({
      REFRESH_BUDGET_SHARE: 0.25,
      SITEMAP_ALLOW_PRIVATE_HOSTS: true,
    });
  });

  it("refuses a share outside 0 to 1 and a yes/no that is neither", () => {
    for (const share of ["1.5", "-0.1", "half", "50%"]) expect(envError({ REFRESH_BUDGET_SHARE: share })).toMatch(/REFRESH_BUDGET_SHARE/);
    expect(envError({ SITEMAP_ALLOW_PRIVATE_HOSTS: "yes" })).toMatch(/SITEMAP_ALLOW_PRIVATE_HOSTS/);
  });
});

describe("EVENT_RETENTION_DAYS", () => {
  it("keeps events 30 days unless told, and refuses anything but a whole number of days from 1", () => {
    expect(parseEnv({}).EVENT_RETENTION_DAYS).toBe(30);
    expect(parseEnv({ EVENT_RETENTION_DAYS: "90" }).EVENT_RETENTION_DAYS).toBe(90);
    for (const days of ["0", "-1", "1.5", "a month"]) expect(envError({ EVENT_RETENTION_DAYS: days })).toMatch(/EVENT_RETENTION_DAYS/);
  });
});

describe("WEBHOOK_ALLOW_PRIVATE_HOSTS", () => {
  it("is off unless set to true, and refuses anything but true or false", () => {
    expect(parseEnv({}).WEBHOOK_ALLOW_PRIVATE_HOSTS).toBe(false);
    expect(parseEnv({ WEBHOOK_ALLOW_PRIVATE_HOSTS: "true" }).WEBHOOK_ALLOW_PRIVATE_HOSTS).toBe(true);
    expect(parseEnv({ WEBHOOK_ALLOW_PRIVATE_HOSTS: "false" }).WEBHOOK_ALLOW_PRIVATE_HOSTS).toBe(false);
    expect(envError({ WEBHOOK_ALLOW_PRIVATE_HOSTS: "1" })).toMatch(/WEBHOOK_ALLOW_PRIVATE_HOSTS/);
  });
});

describe("SHARECOUNT_V2_NETWORKS", () => {
  const live = { FACEBOOK_ACCESS_TOKEN: "1|x" };

  it("is every network on the sandbox, and in live mode every one needing no credentials, plus Bluesky once its credentials are set", () => {
    expect(parseEnv({}).SHARECOUNT_V2_NETWORKS).toEqual(["reddit", "hackernews", "bluesky", "vk", "ok", "tumblr"]);
    expect(parseEnv(live).SHARECOUNT_V2_NETWORKS).toEqual(["reddit", "hackernews", "vk", "ok", "tumblr"]);
    expect(parseEnv({ ...live, BLUESKY_IDENTIFIER: "me.bsky.social", BLUESKY_APP_PASSWORD: "abcd-efgh" }).SHARECOUNT_V2_NETWORKS).toContain("bluesky");
  });

  it("takes a list (any case, repeats merged) or none, with the real networks' addresses by default", () => {
    const env = parseEnv({ SHARECOUNT_V2_NETWORKS: " Reddit,vk,reddit " });
    expect(env.SHARECOUNT_V2_NETWORKS).toEqual(["reddit", "vk"]);
    expect(parseEnv({ SHARECOUNT_V2_NETWORKS: "none" }).SHARECOUNT_V2_NETWORKS).toEqual([]);
    expect([env.REDDIT_URL, env.HACKERNEWS_URL, env.BLUESKY_URL, env.VK_URL, env.OK_URL, env.TUMBLR_URL]).toEqual([
      "https://www.reddit.com",
      "https://hn.algolia.com/api/v1",
      "https://bsky.social/xrpc",
      "https://vk.com",
      "https://connect.ok.ru",
      "https://api.tumblr.com",
    ]);
  });

  it("refuses unknown networks, Bluesky without credentials when live, and half of Reddit's OAuth pair", () => {
    expect(envError({ SHARECOUNT_V2_NETWORKS: "reddit,myspace,facebook" })).toMatch(/SHARECOUNT_V2_NETWORKS: .*unknown: myspace, facebook/);
    expect(envError({ ...live, SHARECOUNT_V2_NETWORKS: "bluesky" })).toMatch(/SHARECOUNT_V2_NETWORKS: names bluesky, which needs BLUESKY_IDENTIFIER/);
    expect(envError({ REDDIT_CLIENT_ID: "id" })).toMatch(/REDDIT_CLIENT_SECRET: REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET go together/);
    expect(envError({ REDDIT_TIMEOUT_MS: "10" })).toMatch(/REDDIT_TIMEOUT_MS/);
  });
});
