-- The hf command line's client (huggingface_hub's DEVICE_CODE_OAUTH_CLIENT_ID, which it sends to
-- /oauth/device without a scope): a public app of the hub itself (no owner), so that
-- `HF_ENDPOINT=<this hub> hf auth login` works unchanged. Its scopes are set here, as the Hub sets
-- those of its own app: what the command line does (repositories, collections, gated downloads).
INSERT INTO "OAuthApp" ("id", "clientId", "secretHash", "name", "homepage", "description", "redirectUris", "scopes", "createdAt", "updatedAt")
VALUES ('hf-cli', '26be6b09-91c5-47da-9861-d2d2bb7a7e36', NULL, 'hf (Hugging Face command line)', 'https://huggingface.co/docs/huggingface_hub/guides/cli',
        'Signs the hf command line in with the device flow (hf auth login).', '[]',
        '["read-repos","write-repos","manage-repos","gated-repos","read-collections","write-collections","inference-api"]',
        TIMESTAMP '2026-12-01 00:00:00', TIMESTAMP '2026-12-01 00:00:00')
ON CONFLICT ("clientId") DO NOTHING;
