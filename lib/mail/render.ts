import { render } from "@react-email/render";
import { createElement } from "react";
// Loaded with react, not later by @react-email/render: both pick their development or production build by
// NODE_ENV when loaded, and `npm start` sets it (Next.js) after react is loaded; mixed builds fail every render.
import "react-dom/server";
import { TEMPLATES, type MailContent, type MailKind } from "./templates/content.ts";
import { Message } from "./templates/message.tsx";

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
  notice: boolean;
  /** The one-click unsubscribe link, for the List-Unsubscribe headers. */
  unsubscribe: string | null;
}

/** The mail a row stands for; throws when the data does not fit its kind (a row no release can send). */
export async function renderMail(kind: MailKind, data: unknown, origin: string): Promise<RenderedMail> {
  const template = TEMPLATES[kind];
  const content = (template.content as (d: unknown) => MailContent)(template.data.parse(data));
  const element = createElement(Message, { content, origin });
  const [html, text] = await Promise.all([render(element), render(element, { plainText: true })]);
  return { subject: content.subject, html, text, notice: content.notice, unsubscribe: content.unsubscribe ?? null };
}
