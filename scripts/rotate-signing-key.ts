// Rotates the OpenID Connect signing key: new id_tokens are signed with a fresh RS256 key, and the
// old ones stay in the JWKS so tokens already issued still verify. Refused when this process's
// AUTH_SECRET cannot read the current key (it is not the servers'); `-- --force` when the secret
// was changed on purpose and every instance now runs with the new one.
import './load-env'
import { rotateSigningKey, SigningKeyUnreadable } from '@/lib/oauth/keys'

rotateSigningKey({ force: process.argv.includes('--force') })
  .then((kid) => {
    console.log(`new signing key ${kid}; earlier keys stay published for verification`)
    process.exit(0)
  })
  .catch((error) => {
    console.error(error instanceof SigningKeyUnreadable ? `not rotated: ${error.message}` : error)
    process.exit(1)
  })
