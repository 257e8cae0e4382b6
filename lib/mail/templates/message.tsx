import { Body, Button, Container, Head, Heading, Hr, Html, Link, Preview, Section, Text } from "@react-email/components";
import type { MailContent } from "./content.ts";

const page = { backgroundColor: "#f4f4f5", fontFamily: "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif" };
const card = { backgroundColor: "#ffffff", borderRadius: "8px", margin: "24px auto", maxWidth: "520px", padding: "32px" };
const brand = { color: "#4338ca", fontSize: "14px", fontWeight: 700, letterSpacing: "0.04em", margin: "0 0 16px" };
const paragraph = { color: "#27272a", fontSize: "15px", lineHeight: "24px" };
const button = { backgroundColor: "#4338ca", borderRadius: "6px", color: "#ffffff", fontSize: "15px", fontWeight: 600, padding: "12px 20px" };
const small = { color: "#71717a", fontSize: "13px", lineHeight: "20px" };

/** Every mail's one frame: the product's name, a heading, paragraphs, at most one action, and a footer. */
export function Message({ content, origin }: { content: MailContent; origin: string }) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{content.heading}</Preview>
      <Body style={page}>
        <Container style={card}>
          <Text style={brand}>sharecount</Text>
          <Heading as="h1" style={{ fontSize: "20px", margin: "0 0 16px" }}>
            {content.heading}
          </Heading>
          {content.paragraphs.map((text) => (
            <Text key={text} style={paragraph}>
              {text}
            </Text>
          ))}
          {content.action && (
            <Section style={{ margin: "24px 0" }}>
              <Button href={content.action.href} style={button}>
                {content.action.label}
              </Button>
              <Text style={small}>
                Or open this link: <Link href={content.action.href}>{content.action.href}</Link>
              </Text>
            </Section>
          )}
          <Hr />
          <Text style={small}>
            {content.footer} sharecount · <Link href={origin}>{origin}</Link>
          </Text>
          {content.unsubscribe && (
            <Text style={small}>
              <Link href={content.unsubscribe}>Unsubscribe from these mails</Link>
            </Text>
          )}
        </Container>
      </Body>
    </Html>
  );
}
