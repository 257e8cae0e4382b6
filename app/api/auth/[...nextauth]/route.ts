import { handlers } from "@/dashboard/server/auth/auth";

export const { GET, POST } = handlers;
