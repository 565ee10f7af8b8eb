/**
 * A response whose JSON text is already written, from parts each validated against its contract by the service
 * that wrote it: sent as it is, not through the response serializer
 * (docs/decisions/0056-dashboard-spliced-from-replies.md).
 */
export class JsonText {
  constructor(readonly text: string) {}
}
