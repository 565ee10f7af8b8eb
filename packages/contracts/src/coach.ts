import { z } from "zod";
import { CalendarDate } from "./common.ts";

export const ChatMessage = z
  .object({
    role: z.enum(["user", "assistant"], { error: "role must be user or assistant" }),
    content: z.string().min(1, { error: "content must be 1 to 4000 characters" }).max(4000, { error: "content must be 1 to 4000 characters" }),
  })
  .meta({ id: "ChatMessage" });

export const AgentRequest = z
  .object({
    messages: z
      .array(ChatMessage, { error: "messages must be an array of chat messages" })
      .min(1, { error: "messages must hold 1 to 20 messages" })
      .max(20, { error: "messages must hold 1 to 20 messages" }),
    date: CalendarDate.optional(),
  })
  .meta({ id: "AgentRequest" });

export const AgentReply = z.object({ reply: z.string() }).meta({ id: "AgentReply" });
