/**
 * Links and e-mail addresses say where, not what: their host and path words ("/es/", "el.example") are no language's,
 * their digits no number the text states, their dots and "@" no obfuscation. The patterns of every offline engine
 * that sets them aside.
 */

/** A link: a URL with its scheme, or a host name starting "www.". */
export const LINK_SOURCE = String.raw`\b(?:https?:\/\/|www\.)\S+`
/** An e-mail address: a local part, "@", and a host name of two labels or more, in any script ("joão@empresa.com.br"). */
export const EMAIL_SOURCE = String.raw`(?<![\p{L}\p{M}\p{N}_.+-])[\p{L}\p{M}\p{N}_.+-]+@[\p{L}\p{M}\p{N}_-]+(?:\.[\p{L}\p{M}\p{N}_-]+)+`
export const ADDRESS_SOURCE = `${EMAIL_SOURCE}|${LINK_SOURCE}`

/** Every link and e-mail address of a text (for replace and matchAll). */
export const ADDRESSES = new RegExp(ADDRESS_SOURCE, 'giu')
