# Environment every offline step needs (sourced by hub.sh, test.sh and .ci/run).
export NEXT_TELEMETRY_DISABLED=1           # else DNS to telemetry.nextjs.org
export CHECKPOINT_DISABLE=1                # else the Prisma CLI looks up checkpoint.prisma.io
export PRISMA_HIDE_UPDATE_MESSAGE=1
export ONNXRUNTIME_NODE_INSTALL=skip       # the CPU binary ships inside the npm package
export PRISMA_SCHEMA_ENGINE_BINARY="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/schema-engine-stub"
