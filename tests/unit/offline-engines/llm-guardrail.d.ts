/** The part of llm_guardrail's API (untyped JS) that the parity test calls. */
declare module 'llm_guardrail' {
  export function checkInjection(prompt: string): Promise<{ detected: boolean; confidence: number }>
}
