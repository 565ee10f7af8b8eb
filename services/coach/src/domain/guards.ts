// Checks on a model call made before and after it: whether a reply repeats the system prompt's canary, and how
// many tokens a call may spend before it has said how many it did.

/**
 * What stays of a text once case, spacing, punctuation and invisible characters are gone (compatibility forms
 * folded first, so full-width letters count as letters): a copy of the canary survives any of those disguises.
 */
export const skeleton = (text: string): string => text.normalize("NFKC").toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");

/** The reply carries the canary, however spaced, cased or punctuated (docs/security.md, section 24). */
export const repeatsCanary = (reply: string, canary: string): boolean => skeleton(reply).includes(skeleton(canary));

/**
 * What one image input costs at most: OpenAI's high detail counts 170 tokens per 512-pixel tile of the image scaled to
 * 768 pixels on its short side, plus 85; a photo sent at up to 1568 pixels long is at most six tiles.
 */
const IMAGE_TOKENS = 6 * 170 + 85;

/**
 * What one metered call holds against the day's tokens before it runs: the answer's ceiling plus its prompt at three
 * characters a token (fewer than a tokenizer's usual four, so the estimate errs high) and its images, never more
 * than the day allows. The call settles to what the model reports it used.
 */
export const tokenReservation = ({ maxTokens, promptChars, images = 0, tokensPerDay }: { maxTokens: number; promptChars: number; images?: number; tokensPerDay: number }): number =>
  Math.min(maxTokens + Math.ceil(promptChars / 3) + images * IMAGE_TOKENS, tokensPerDay);
