// Delivers magic links: by SMTP when SMTP_URL is set, otherwise onto the console for local use.
import { createHash } from "node:crypto";
import type { Transporter } from "nodemailer";
import { redactUrl } from "@fit/service-kit";
import type { IdentityLogger } from "./logger.ts";

export interface MagicLinkMessage {
  email: string;
  url: string;
}

export interface MagicLinkMailer {
  send(message: MagicLinkMessage): Promise<void>;
}

export interface MailerOptions {
  smtpUrl?: string | undefined;
  from: string;
  logger: IdentityLogger;
  /** Where links go without SMTP (default: process.stdout). */
  console?: { write(text: string): unknown };
}

/**
 * How the log names a recipient: an email address is personal data, and logs are kept and shipped more widely
 * than the account table. A digest still lets an operator who is given an address find its lines (hash it the
 * same way: docs/security.md, section 13).
 */
const recipientDigest = (email: string): string =>
  createHash("sha256").update(email.trim().toLowerCase()).digest("hex").slice(0, 16);

export function createMagicLinkMailer({ smtpUrl, from, logger, console = process.stdout }: MailerOptions): MagicLinkMailer {
  if (!smtpUrl) {
    return {
      send({ email, url }) {
        // Without a mail server the link is the only way in, so it is shown where the operator looks: the log
        // and, plainly, stdout (the quick start copies it from there). Never do this with SMTP configured.
        logger.info({ recipient: recipientDigest(email), url: redactUrl(url) }, "magic link printed on the console (SMTP_URL unset, so not mailed)");
        console.write(`Sign-in link for ${email}: ${url}\n`);
        return Promise.resolve();
      },
    };
  }
  // Loaded when the first link is mailed: most processes never mail, and every module a process loads stays in
  // its memory for good (docs/performance.md, "Where a service's RSS goes").
  let transport: Promise<Transporter> | undefined;
  const transportOf = () => (transport ??= import("nodemailer").then(({ default: nodemailer }) => nodemailer.createTransport(smtpUrl)));
  return {
    async send({ email, url }) {
      await (await transportOf()).sendMail({
        from,
        to: email,
        subject: "Your sign-in link",
        text: `Open this link to sign in:\n\n${url}\n\nIt works once and expires soon. If you did not ask for it, ignore this email.`,
      });
      logger.info({ recipient: recipientDigest(email) }, "magic link mailed");
    },
  };
}
