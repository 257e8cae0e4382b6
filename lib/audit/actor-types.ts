/** The kinds of actor an audit event names (see actor.ts). Runs in the browser too. */
export const ACTOR_TYPES = ["user", "key", "system", "anonymous"] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];
