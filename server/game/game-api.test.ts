import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { badgeProgressSchema, leaderboardSchema } from "../../contract/game.ts";
import { gameLedger, gameProfiles, users } from "../db/schema.ts";
import { createClock } from "../lib/clock.ts";
import { storedAccount } from "../test/auth-db.ts";
import { type AuthFixture, PEOPLE, startAuthFixture } from "../test/auth-fixture.ts";
import { BACKENDS } from "../test/databases.ts";
import { createEmail, createUser, sessionFor } from "../test/factories.ts";
import { createGameService } from "./game-service.ts";

const EMAIL = /[^\s@"]+@[^\s@"]+\.[^\s@"]+/;

describe.each(BACKENDS)("achievements and leaderboard on %s", (kind) => {
  let f: AuthFixture;

  beforeAll(async () => {
    f = await startAuthFixture(kind, {}, { seedCorpus: false });
  });
  afterAll(async () => {
    await f?.close();
  });
  beforeEach(async () => {
    await fetch(`${f.emulator.url}/_admin/mail/faults/reset`, { method: "POST" });
  });

  const db = () => f.database.database.db;

  /** Signs the person in and stores `count` delivered unread messages as their rows. */
  async function personWithMail(owner: string, count: number, provider: "gmail" | "outlook" = "gmail") {
    const token = await f.signIn(provider, owner);
    const account = await storedAccount(f.database.database, owner);
    const rows = [];
    for (let i = 0; i < count; i++) {
      const emulatorProvider = provider === "gmail" ? "google" : "microsoft";
      const r = await fetch(
        `${f.emulator.url}/_admin/mailboxes/${owner}/messages?provider=${emulatorProvider}`,
        {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            from: { name: "Priya Shah", address: PEOPLE.priya },
            subject: `Mail ${i}`,
            text: "Hello there",
          }),
        },
      );
      const d = (await r.json()) as { id: string; graphId: string; threadId: string; messageId: string };
      rows.push(
        await createEmail(
          db(),
          { id: account.id, userId: account.userId },
          {
            providerId: provider === "gmail" ? d.id : d.graphId,
            threadId: d.threadId,
            internetMessageId: d.messageId,
            subject: `Mail ${i}`,
          },
        ),
      );
    }
    return { token, userId: account.userId, rows };
  }

  async function progress(token: string) {
    const r = await f.api("GET", "/api/badges/progress", { token });
    expect(r.status).toBe(200);
    return badgeProgressSchema.parse(r.json);
  }
  async function board(token: string) {
    const r = await f.api("GET", "/api/leaderboard", { token });
    expect(r.status).toBe(200);
    expect(r.text).not.toMatch(EMAIL);
    return leaderboardSchema.parse(r.json);
  }
  const badge = (p: Awaited<ReturnType<typeof progress>>, id: string) =>
    [...p.earnedBadges, ...p.availableBadges].find((b) => b.id === id);

  it("badge progress answers the spec's shape: 20 badges, four tiers, tier counts of the earned", async () => {
    const { token } = await personWithMail(PEOPLE.sam, 0);
    const p = await progress(token);
    expect(Object.keys(p).sort()).toEqual(["availableBadges", "earnedBadges", "stats"]);
    expect(p.stats.totalBadges).toBe(20);
    expect(p.earnedBadges.length + p.availableBadges.length).toBe(20);
    expect(new Set([...p.earnedBadges, ...p.availableBadges].map((b) => b.tier))).toEqual(
      new Set(["bronze", "silver", "gold", "platinum"]),
    );
    expect(new Set([...p.earnedBadges, ...p.availableBadges].map((b) => b.category)).size).toBe(6);
    // Signed up now, before the default founding cut-off: both early badges, earned at sign-up.
    expect(p.earnedBadges.map((b) => b.id).sort()).toEqual(["early-adopter", "founding-member"]);
    expect(p.stats).toEqual({
      earnedBadges: 2,
      totalBadges: 20,
      bronzeBadges: 0,
      silverBadges: 0,
      goldBadges: 1,
      platinumBadges: 1,
    });
    const first = badge(p, "processed-10");
    expect(first).toMatchObject({ earnedAt: null, progress: { current: 0, target: 10, percentage: 0 } });
    for (const b of p.availableBadges) expect(b.earnedAt).toBeNull();
    for (const b of p.earnedBadges) expect(Number.isNaN(Date.parse(b.earnedAt ?? ""))).toBe(false);
  });

  it("counts each provider-confirmed email once: archive/unarchive loops, star and bulk repeats do not inflate", async () => {
    const { token, rows } = await personWithMail(PEOPLE.alex, 3);
    const [a, b, c] = rows as [(typeof rows)[0], (typeof rows)[0], (typeof rows)[0]];
    for (let i = 0; i < 3; i++) {
      expect(
        (await f.api("PATCH", `/api/emails/${a.id}`, { token, body: { isArchived: true } })).status,
      ).toBe(200);
      expect(
        (await f.api("PATCH", `/api/emails/${a.id}`, { token, body: { isArchived: false } })).status,
      ).toBe(200);
    }
    await f.api("PATCH", `/api/emails/${a.id}`, { token, body: { isStarred: true, isFlagged: true } });
    await f.api("PATCH", `/api/emails/${a.id}`, { token, body: { isStarred: false } });
    await f.api("PATCH", `/api/emails/${a.id}`, { token, body: { isStarred: true } });
    await f.api("POST", "/api/emails/bulk-action", {
      token,
      body: { action: "archive", emailIds: [a.id, b.id] },
    });
    await f.api("POST", "/api/emails/bulk-action", {
      token,
      body: { action: "archive", emailIds: [a.id, b.id] },
    });
    await f.writesBack();
    let p = await progress(token);
    expect(badge(p, "processed-10")?.progress).toEqual({ current: 2, target: 10, percentage: 20 });
    expect((await board(token)).currentUser.totalEmailsProcessed).toBe(2);

    // A provider that refuses the write: nothing is counted.
    const fault = await fetch(`${f.emulator.url}/_admin/mail/faults`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ errorRate: 1, provider: "google" }),
    });
    expect(fault.status).toBe(200);
    // Answered at once; the provider's refusal then puts the email back (decision 0086).
    const refused = await f.api("DELETE", `/api/emails/${c.id}`, { token });
    expect(refused.status).toBe(200);
    await f.writesBack();
    const back = await f.api("GET", `/api/emails/${c.id}`, { token });
    expect(back.json).toMatchObject({ isArchived: false });
    p = await progress(token);
    expect(badge(p, "processed-10")?.progress.current).toBe(2);
    expect((await board(token)).currentUser.totalEmailsProcessed).toBe(2);
  });

  it("a burst of actions waiting for the person's turn is one transaction, each email counted once", async () => {
    const { token, userId } = await personWithMail(PEOPLE.priya, 0);
    const before = (await board(token)).currentUser.totalEmailsProcessed;
    const keys = Array.from({ length: 30 }, () => randomUUID());
    const transactions = vi.spyOn(db(), "transaction");
    try {
      // Each email twice (as a repeated click would): the ledger counts it once.
      await Promise.all(
        keys.map((key, i) => f.server.app.game.processed(userId, [key, keys[(i + 1) % keys.length] ?? key])),
      );
      expect(transactions.mock.calls.length).toBeLessThanOrEqual(2);
    } finally {
      transactions.mockRestore();
    }
    expect((await board(token)).currentUser.totalEmailsProcessed).toBe(before + 30);
  });

  it("inbox-zero days and streaks are the person's local days; earnedAt survives; the streak lapses", async () => {
    const { token, userId, rows } = await personWithMail(PEOPLE.jordan, 2, "outlook");
    const [one, two] = rows as [(typeof rows)[0], (typeof rows)[0]];
    expect(
      (
        await f.api("PATCH", "/api/user/leaderboard-settings", {
          token,
          body: { timeZone: "Pacific/Kiritimati" },
        })
      ).json,
    ).toMatchObject({ timeZone: "Pacific/Kiritimati", showOnLeaderboard: true });
    await f.api("PATCH", `/api/emails/${one.id}`, { token, body: { isRead: true } });
    await f.writesBack();
    let me = (await board(token)).currentUser;
    expect(me).toMatchObject({ inboxZeroStreak: 0, bestInboxZeroStreak: 0 });
    await f.api("PATCH", `/api/emails/${two.id}`, { token, body: { isArchived: true } });
    await f.writesBack();
    me = (await board(token)).currentUser;
    expect(me).toMatchObject({ inboxZeroStreak: 1, bestInboxZeroStreak: 1 });
    const [profile] = await db().select().from(gameProfiles).where(eq(gameProfiles.userId, userId));
    const kiritimatiToday = new Intl.DateTimeFormat("en-CA", { timeZone: "Pacific/Kiritimati" }).format(
      new Date(),
    );
    expect(profile?.lastInboxZeroDay).toBe(kiritimatiToday);
    const earned = (await progress(token)).earnedBadges.find((b) => b.id === "inbox-zero-1");
    expect(earned?.name).toBe("Inbox Zero Master");

    // A second action the same day adds no day.
    await f.api("PATCH", `/api/emails/${two.id}`, { token, body: { isArchived: false } });
    await f.api("PATCH", `/api/emails/${two.id}`, { token, body: { isArchived: true } });
    await f.writesBack();
    expect(
      (await progress(token)).availableBadges.find((b) => b.id === "inbox-zero-7")?.progress.current,
    ).toBe(1);

    // The next local day: a new unread mail, read again -> a 2-day streak.
    await f.moveClock(86_400);
    const [three] = (await personWithMail(PEOPLE.jordan, 1, "outlook")).rows;
    await f.api("PATCH", `/api/emails/${three?.id}`, { token, body: { isRead: true } });
    await f.writesBack();
    me = (await board(token)).currentUser;
    expect(me).toMatchObject({ inboxZeroStreak: 2, bestInboxZeroStreak: 2 });

    // Two days without inbox zero: the current streak is over, the best stays, so does the badge.
    await f.moveClock(2 * 86_400);
    me = (await board(token)).currentUser;
    expect(me).toMatchObject({ inboxZeroStreak: 0, bestInboxZeroStreak: 2 });
    const again = (await progress(token)).earnedBadges.find((b) => b.id === "inbox-zero-1");
    expect(again?.earnedAt).toBe(earned?.earnedAt);
  });

  it("AI use counts once per email and UTC day, and once a day without an email: 30 calls farm nothing", async () => {
    const { token, userId, rows } = await personWithMail(PEOPLE.priya, 1);
    const id = rows[0]?.id ?? "";
    const before = (await board(token)).currentUser.score;
    for (let i = 0; i < 3; i++)
      expect((await f.api("POST", `/api/agent/analyze/${id}`, { token })).status).toBe(200);
    expect((await f.api("POST", `/api/agent/response/${id}`, { token, body: {} })).status).toBe(200);
    let p = await progress(token);
    expect(p.earnedBadges.find((b) => b.id === "ai-1")?.progress).toEqual({
      current: 1,
      target: 1,
      percentage: 100,
    });
    expect(badge(p, "ai-25")?.progress.current).toBe(1);

    // Issue 34.2: 30 trivial Improve calls (and compose help) are one use for the day, not 30.
    for (let i = 0; i < 30; i++) {
      const r = await f.api("POST", "/api/ai/improve-text", { token, body: { text: `hi ${i}` } });
      expect(r.status).toBe(200);
    }
    expect((await f.api("POST", "/api/ai/compose-suggestions", { token, body: { body: "hi" } })).status).toBe(
      200,
    );
    p = await progress(token);
    expect(badge(p, "ai-25")?.progress.current).toBe(2);
    expect(p.earnedBadges.filter((b) => b.category === "ai").map((b) => b.id)).toEqual(["ai-1"]);
    // The one AI badge is all the points AI use brought: 100, not 200 more for a farmed second.
    expect((await board(token)).currentUser.score - before).toBe(100);
    const ledger = await db().select().from(gameLedger).where(eq(gameLedger.userId, userId));
    expect(ledger.filter((r) => r.kind === "ai")).toHaveLength(2);

    // The next UTC day the same email and the same compose help count again, once each.
    await f.moveClock(86_400);
    await f.api("POST", "/api/ai/improve-text", { token, body: { text: "hi again" } });
    await f.api("POST", "/api/ai/improve-text", { token, body: { text: "hi again" } });
    await f.api("POST", `/api/agent/analyze/${id}`, { token });
    p = await progress(token);
    expect(badge(p, "ai-25")?.progress.current).toBe(4);
  });

  it("unsubscribes count once per confirmed sender", async () => {
    const user = await createUser(db());
    const token = await sessionFor(db(), user.id);
    await f.server.app.game.unsubscribed(user.id, "News@Shop.example");
    await f.server.app.game.unsubscribed(user.id, "news@shop.example ");
    const p = await progress(token);
    expect(p.earnedBadges.find((b) => b.id === "unsubscribe-1")).toBeDefined();
    expect(badge(p, "unsubscribe-10")?.progress.current).toBe(1);
  });

  it("the leaderboard: spec fields, shared ranks for equal scores, total from the ranking, no email addresses", async () => {
    const game = f.server.app.game;
    const people = [];
    for (const processed of [30, 20, 20, 5]) {
      const user = await createUser(db(), { email: `p${randomUUID()}@example.com`, displayName: "x@y.io" });
      await game.processed(
        user.id,
        Array.from({ length: processed }, (_, i) => `${user.id}-${i}`),
      );
      people.push({ user, token: await sessionFor(db(), user.id) });
    }
    const [top, second, third, fourth] = people as [
      (typeof people)[0],
      (typeof people)[0],
      (typeof people)[0],
      (typeof people)[0],
    ];
    const l = await board(top.token);
    expect(Object.keys(l).sort()).toEqual(["currentUser", "topUsers", "totalUsers"]);
    expect(Object.keys(l.currentUser).sort()).toEqual(
      [
        "userId",
        "rank",
        "displayName",
        "score",
        "inboxZeroStreak",
        "bestInboxZeroStreak",
        "totalBadgesEarned",
        "totalEmailsProcessed",
        "joinedDate",
        "isFoundingMember",
        "isEarlyAdopter",
      ].sort(),
    );
    // 30 processed, 4 badges (the two early ones, processed-10, and inbox zero: this person has
    // no unread mail), a best streak of 1, the founding bonus.
    expect(l.currentUser).toMatchObject({
      score: 300 + 400 + 50 + 1000,
      totalBadgesEarned: 4,
      isFoundingMember: true,
      isEarlyAdopter: false,
    });
    const rankOf = (id: string) => l.topUsers.find((e) => e.userId === id)?.rank;
    // Competition ranking: one plus the people with a higher score; equal scores share a rank.
    for (const e of l.topUsers) expect(e.rank).toBe(1 + l.topUsers.filter((o) => o.score > e.score).length);
    const topRank = rankOf(top.user.id) ?? 0;
    expect(rankOf(second.user.id)).toBe(topRank + 1);
    expect(rankOf(third.user.id)).toBe(topRank + 1);
    const fourthRank = rankOf(fourth.user.id) ?? 0;
    expect(fourthRank).toBeGreaterThanOrEqual(topRank + 3);
    expect((await board(third.token)).currentUser.rank).toBe(topRank + 1);
    expect((await board(fourth.token)).currentUser.rank).toBe(fourthRank);
    const scores = l.topUsers.map((e) => e.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const { rows } = await f.database.database.executeSql(
      "select count(*)::int as n from game_profiles where show_on_leaderboard",
    );
    expect(l.totalUsers).toBe((rows[0] as { n: number }).n);
    // The default name is a pseudonym: not the stored name, not the address.
    const entry = l.topUsers.find((e) => e.userId === fourth.user.id);
    expect(entry?.displayName).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+ \d{1,3}$/);

    // Hiding takes the person off the ranking and out of the total; their own entry still answers.
    const hide = await f.api("PATCH", "/api/user/leaderboard-settings", {
      token: fourth.token,
      body: { showOnLeaderboard: false },
    });
    expect(hide.json).toMatchObject({ showOnLeaderboard: false });
    const hidden = await board(top.token);
    expect(hidden.topUsers.map((e) => e.userId)).not.toContain(fourth.user.id);
    expect(hidden.totalUsers).toBe(l.totalUsers - 1);
    expect((await board(fourth.token)).currentUser.userId).toBe(fourth.user.id);

    // A deleted person leaves the ranking's histogram too (the cascade fires the trigger).
    await db().delete(users).where(eq(users.id, third.user.id));
    // The top of the ranking is read at most once a second: a deletion shows within that.
    await vi.waitFor(async () => expect((await board(top.token)).totalUsers).toBe(l.totalUsers - 2), {
      timeout: 5_000,
      interval: 250,
    });
    expect((await board(fourth.token)).currentUser.rank).toBe(fourthRank - 1);
  });

  it("display name: trimmed, non-empty, at most 40 characters, never an email address", async () => {
    const { token } = await personWithMail(PEOPLE.casey, 0, "outlook");
    const before = await board(token);
    // The provider's name (Casey Kim) is not put on a public ranking without being chosen.
    expect(before.currentUser.displayName).not.toContain("Casey");
    for (const bad of ["", "   ", "x".repeat(41), "casey.kim@gmail.com", "me (casey@example.org)", 5]) {
      const r = await f.api("PATCH", "/api/user/display-name", { token, body: { displayName: bad } });
      expect(r.status, String(bad)).toBe(400);
      expect(r.json?.error).toMatchObject({
        code: "validation_failed",
        fields: { displayName: expect.any(String) },
      });
    }
    expect((await f.api("PATCH", "/api/user/display-name", { token, body: {} })).status).toBe(400);
    const ok = await f.api("PATCH", "/api/user/display-name", {
      token,
      body: { displayName: `  ${"C".repeat(40)}  ` },
    });
    expect(ok.status).toBe(200);
    expect(ok.json).toEqual({ displayName: "C".repeat(40) });
    expect((await board(token)).currentUser.displayName).toBe("C".repeat(40));
    const tz = await f.api("PATCH", "/api/user/leaderboard-settings", {
      token,
      body: { timeZone: "Mars/Base" },
    });
    expect(tz.status).toBe(400);
  });

  it("display name: NFKC, no invisible or control characters, no pseudonym look-alike, no staff words", async () => {
    const user = await createUser(db());
    const token = await sessionFor(db(), user.id);
    const setName = (displayName: string) =>
      f.api("PATCH", "/api/user/display-name", { token, body: { displayName } });
    const invisible = "Display name must not contain invisible or control characters";
    const pseudonymLike = "Display name must not look like a generated leaderboard name";
    const staffLike = "Display name must not suggest Mailwise staff";
    const refused: Array<[string, string]> = [
      // Bidi controls turn the text around or hide what follows.
      ["\u202Enimda", invisible],
      ["Sam\u2066Lee", invisible],
      ["Sam\u200FLee", invisible],
      ["Sam\u061CLee", invisible],
      // Zero-width and other invisible-only names.
      ["\u200B\u200B", invisible],
      ["\u2060", invisible],
      ["\uFEFFSam", invisible],
      ["Sa\u00ADm", invisible],
      ["Sam\uFE0F", invisible],
      ["\u3164", invisible],
      ["\u115F\u1160", invisible],
      ["\u2800\u2800", invisible],
      // Control characters, line breaks and tabs.
      ["Sam\u0007", invisible],
      ["Sam\r\nAdmin", invisible],
      ["Sam\nLee", invisible],
      ["Sam\tLee", invisible],
      ["Sam\u0085Lee", invisible],
      ["Sam\u2028Lee", invisible],
      ["Sam\uE000", invisible],
      // Someone else's generated name, however it is spelled.
      ["Swift Otter 42", pseudonymLike],
      ["swift otter 7", pseudonymLike],
      ["SwiftOtter999", pseudonymLike],
      ["Swift 0tter 42", pseudonymLike],
      ["Ｓｗｉｆｔ Ｏｔｔｅｒ ４２", pseudonymLike],
      ["Swift Оtter 42", pseudonymLike], // Cyrillic O
      ["Zesty Marten 0.", pseudonymLike],
      // Staff-like words, through case, width, look-alike letters and digits.
      ["Mailwise Admin", staffLike],
      ["MAILWISE", staffLike],
      ["ｍａｉｌｗｉｓｅ", staffLike],
      ["Mаilwise Team", staffLike], // Cyrillic a
      ["Mail Wise", staffLike],
      ["The Admin", staffLike],
      ["TheAdmin", staffLike],
      ["4dm1n", staffLike],
      ["Ádmin", staffLike],
      ["Administrator", staffLike],
      ["Support", staffLike],
      ["Customer Support", staffLike],
      ["Staff", staffLike],
      ["Moderator", staffLike],
      ["0ffic1al", staffLike],
      ["System", staffLike],
      ["Admins", staffLike],
    ];
    for (const [name, message] of refused) {
      const r = await setName(name);
      expect(r.status, JSON.stringify(name)).toBe(400);
      expect(r.json?.error, JSON.stringify(name)).toEqual({
        code: "validation_failed",
        message,
        fields: { displayName: message },
      });
    }
    const accepted: Array<[string, string]> = [
      ["Ｓａｍ  Lee", "Sam Lee"],
      ["  Zoë 🦊  ", "Zoë 🦊"],
      ["José Núñez", "José Núñez"],
      ["Badminton Fan", "Badminton Fan"],
      ["Swift Otter", "Swift Otter"],
      ["Otter 42", "Otter 42"],
      ["Mailroom Mike", "Mailroom Mike"],
      ["ﬁnn", "finn"],
    ];
    for (const [name, stored] of accepted) {
      const r = await setName(name);
      expect(r.status, JSON.stringify(name)).toBe(200);
      expect(r.json).toEqual({ displayName: stored });
      expect((await board(token)).currentUser.displayName).toBe(stored);
    }
  });

  it("the cut-offs are configurable: early adopter +500 only when not a founding member", async () => {
    const joined = new Date("2026-03-01T00:00:00Z");
    const founding = await createUser(db(), { createdAt: new Date("2025-01-01T00:00:00Z") });
    const early = await createUser(db(), { createdAt: joined });
    const late = await createUser(db(), { createdAt: new Date("2027-01-01T00:00:00Z") });
    const game = createGameService({
      db: db(),
      clock: createClock(),
      config: {
        foundingMemberUntil: new Date("2026-01-01T00:00:00Z"),
        earlyAdopterUntil: new Date("2026-06-01T00:00:00Z"),
      },
    });
    for (const u of [founding, early, late]) await game.joined(u.id);
    const entry = async (id: string) => (await game.leaderboard(id)).currentUser;
    expect(await entry(founding.id)).toMatchObject({
      isFoundingMember: true,
      isEarlyAdopter: false,
      score: 1000 + 200,
    });
    expect(await entry(early.id)).toMatchObject({
      isFoundingMember: false,
      isEarlyAdopter: true,
      score: 500 + 100,
    });
    expect(await entry(late.id)).toMatchObject({ isFoundingMember: false, isEarlyAdopter: false, score: 0 });
    // Moving the founding cut-off past the early adopter's sign-up makes them founding.
    const moved = createGameService({
      db: db(),
      clock: createClock(),
      config: {
        foundingMemberUntil: new Date("2026-04-01T00:00:00Z"),
        earlyAdopterUntil: new Date("2026-06-01T00:00:00Z"),
      },
    });
    expect(await moved.applyCutOffs()).toBeGreaterThanOrEqual(1);
    expect((await moved.leaderboard(early.id)).currentUser).toMatchObject({
      isFoundingMember: true,
      isEarlyAdopter: false,
      score: 1000 + 100,
    });
    // The founding badge lands with the next recorded action.
    await moved.joined(early.id);
    expect((await moved.leaderboard(early.id)).currentUser.score).toBe(1000 + 200);
  });

  it("every game endpoint needs a session", async () => {
    for (const [method, path] of [
      ["GET", "/api/badges/progress"],
      ["GET", "/api/leaderboard"],
      ["PATCH", "/api/user/display-name"],
      ["GET", "/api/user/leaderboard-settings"],
    ] as const) {
      expect(
        (await f.api(method, path, { body: method === "PATCH" ? { displayName: "x" } : undefined })).status,
      ).toBe(401);
    }
  });
});
