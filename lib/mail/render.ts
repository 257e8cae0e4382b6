import { toPlainText } from "@react-email/render";
import { createElement } from "react";
// Loaded with react: both pick their development or production build by NODE_ENV when loaded, and `npm start`
// sets it (Next.js) after react is loaded; mixed builds fail every render.
import { renderToStaticMarkup } from "react-dom/server";
import { TEMPLATES, type MailContent, type MailKind } from "./templates/content.ts";
import { Message } from "./templates/message.tsx";

/** What React Email's render puts first: mail clients still want the XHTML doctype. */
const DOCTYPE = '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';

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
  // The static renderer, not React Email's render: that one streams, and React's streaming renderer switches on
  // AsyncLocalStorage, whose hooks then tax every promise of the worker for the rest of its life.
  const html = `${DOCTYPE}${renderToStaticMarkup(element)}`;
  const text = toPlainText(html);
  return { subject: content.subject, html, text, notice: content.notice, unsubscribe: content.unsubscribe ?? null };
}
