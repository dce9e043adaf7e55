import { setting } from '@/lib/config'

export type ModerationLimits = {
  /** Larger request bodies are answered 413. */
  maxBodyBytes: number
  /** Longer `text` (UTF-16 code units) is a 422. */
  maxTextLength: number
  /** Longer lists (texts, labels, categories) are a 422. */
  maxListItems: number
}

/** Per token (or client address when auth is off) per clock minute; 0 turns a limit off. */
export type RateLimitSettings = {
  requestsPerMinute: number
  /** Characters of text: every string of the request bodies, summed. */
  charactersPerMinute: number
}

export type ModerationSettings = {
  /** MODERATION_AUTH=off trusts every caller (internal deployments); then `Authorization: None` is fine. */
  authRequired: boolean
  limits: ModerationLimits
  rateLimit: RateLimitSettings
}

export function moderationSettings(): ModerationSettings {
  return {
    authRequired: setting('MODERATION_AUTH') !== 'off',
    limits: {
      maxBodyBytes: setting('MODERATION_MAX_BODY_BYTES'),
      maxTextLength: setting('MODERATION_MAX_TEXT_LENGTH'),
      maxListItems: setting('MODERATION_MAX_LIST_ITEMS'),
    },
    rateLimit: { requestsPerMinute: setting('MODERATION_RATE_LIMIT_PER_MINUTE'), charactersPerMinute: setting('MODERATION_CHARACTERS_PER_MINUTE') },
  }
}
