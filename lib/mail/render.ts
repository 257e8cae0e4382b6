import { TEMPLATES, type MailContent, type MailKind } from "./templates/content.ts";

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
  notice: boolean;
}

/**
 * React, its renderer and the templates load together at the first send, so React and react-dom run in one mode:
 * with the dashboard in the same process (npm start), Next.js sets NODE_ENV=production as it starts, and a react
 * loaded before that (development) beside a react-dom/server loaded at the first send (production) fails with
 * "dispatcher.getOwner is not a function".
 */
let renderer: ReturnType<typeof loadRenderer> | null = null;

async function loadRenderer() {
  const [{ render }, { createElement }, { Message }] = await Promise.all([import("@react-email/render"), import("react"), import("./templates/message.tsx")]);
  return { render, createElement, Message };
}

/** The mail a row stands for; throws when the data does not fit its kind (a row no release can send). */
export async function renderMail(kind: MailKind, data: unknown, origin: string): Promise<RenderedMail> {
  const template = TEMPLATES[kind];
  const content = (template.content as (d: unknown) => MailContent)(template.data.parse(data));
  const { render, createElement, Message } = await (renderer ??= loadRenderer());
  const element = createElement(Message, { content, origin });
  const [html, text] = await Promise.all([render(element), render(element, { plainText: true })]);
  return { subject: content.subject, html, text, notice: content.notice };
}
