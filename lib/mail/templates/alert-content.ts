import { z } from "zod";
import type { MailContent } from "./content.ts";

/** Alert mail: one kind for every event type, and the weekly digest. Both carry a one-click unsubscribe link. */

const link = z.url({ protocol: /^https?$/ });
const line = z.string().max(500);
const UNSUBSCRIBE = "You get this mail because alerts are on for your sharecount account; change which in the dashboard's alert settings.";

const alertData = z.object({
  type: z.string().max(60),
  title: z.string().max(120),
  lines: z.array(line).max(10),
  link,
  unsubscribe: link,
});

const digestData = z.object({
  week: z.string().max(40),
  sections: z.array(z.object({ heading: z.string().max(120), lines: z.array(line).max(12) })).max(6),
  link,
  unsubscribe: link,
});

export const ALERT_TEMPLATES = {
  alert: {
    data: alertData,
    content: (d: z.infer<typeof alertData>): MailContent => ({
      subject: `sharecount: ${d.title}`,
      heading: d.title,
      paragraphs: d.lines,
      action: { label: "Open the dashboard", href: d.link },
      footer: UNSUBSCRIBE,
      notice: true,
      unsubscribe: d.unsubscribe,
    }),
  },
  digest: {
    data: digestData,
    content: (d: z.infer<typeof digestData>): MailContent => ({
      subject: `Your sharecount week: ${d.week}`,
      heading: `Your week on sharecount (${d.week})`,
      paragraphs: d.sections.flatMap((section) => [`${section.heading}:`, ...section.lines]),
      action: { label: "Open the dashboard", href: d.link },
      footer: "The weekly digest of your sharecount account; turn it off in the dashboard's alert settings.",
      notice: true,
      unsubscribe: d.unsubscribe,
    }),
  },
} as const;
