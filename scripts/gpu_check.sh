#!/usr/bin/env bash
# The GPU checks, in one run on a machine with a CUDA GPU (never part of the tests):
#   1. the encoder's content tokens/s in fp16 over a sweep of batch token budgets;
#   2. the encoder's fp16 accuracy on the held-out sets, to set beside the CPU's figures;
#   3. the generative recognizer's seconds per note with transformers on the GPU, and,
#      where the vllm package is installed, with vLLM in-process and through a vLLM server.
# Every figure is printed and written under OUT_DIR; nothing is downloaded.
#
#   scripts/gpu_check.sh OUT_DIR ENCODER_DIR [GENERATIVE_DIR]
#
# ENCODER_DIR is a trained encoder (`deid train encoder`); GENERATIVE_DIR a causal LM
# (`deid train generative` builds a small one). DEID names the command (default: deid).
set -u
out=${1:?usage: scripts/gpu_check.sh OUT_DIR ENCODER_DIR [GENERATIVE_DIR]}
encoder=$(realpath "${2:?usage: scripts/gpu_check.sh OUT_DIR ENCODER_DIR [GENERATIVE_DIR]}")
generative=${3:+$(realpath "$3")}
deid=${DEID:-deid}
notes=${GPU_CHECK_NOTES:-2000}
device=${GPU_CHECK_DEVICE:-cuda}  # cpu runs the same steps where there is no GPU
mkdir -p "$out"
work=$(mktemp -d)
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
server=

section() { printf '\n== %s\n' "$1" | tee -a "$out/summary.txt"; }
run() { echo "\$ $*" >>"$out/summary.txt"; "$@" 2>&1 | tee -a "$out/summary.txt"; }

section "machine"
run nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv
run python3 -c "import torch, transformers; print('torch', torch.__version__, 'cuda', torch.version.cuda, '| transformers', transformers.__version__)"

section "encoder throughput on $device (fp16 on a GPU), batch token sweep ($notes notes)"
run $deid bench encoder --path "$encoder" --device "$device" --notes "$notes" --batch-tokens 2048,4096,8192,16384,32768,65536

section "encoder accuracy on $device (compare the GPU's fp16 with a CPU)"
cat >"$work/gpu.toml" <<EOF
[detect]
mix = ["rules", "encoder"]
[detect.encoder]
path = "$encoder"
device = "$device"
EOF
for set in eval/heldout/set_b.jsonl eval/heldout/set_k.jsonl; do
    run $deid eval --gold "$set" --mix rules,encoder --config "$work/gpu.toml" --bootstrap 0 --tau 0.5
done

if [ -z "$generative" ]; then
    section "generative: skipped (no GENERATIVE_DIR)"
    exit 0
fi

# The generative model here is small, trained on short chunks: keep its prompts within its context.
generative_table() {
    cat <<EOF
[detect.generative]
chunk_chars = 120
overlap_chars = 20
max_new_tokens = 48
instructions = "brief"
batch_size = 64
$1
EOF
}

section "generative latency, transformers on $device"
generative_table "model_path = \"$generative\"
device = \"$device\"" >"$work/gen-transformers.toml"
run $deid bench generative --config "$work/gen-transformers.toml" --notes 50

if ! python3 -c "import vllm" 2>/dev/null; then
    section "generative with vLLM: skipped, the vllm package is not installed here"
    exit 0
fi

section "generative latency, vLLM in-process"
generative_table "backend = \"vllm\"
model_path = \"$generative\"
vllm_options = { gpu_memory_utilization = 0.3 }" >"$work/gen-vllm.toml"
run $deid bench generative --config "$work/gen-vllm.toml" --notes 50

section "generative latency, through a vLLM server"
port=${GPU_CHECK_PORT:-8765}
python3 -m vllm.entrypoints.openai.api_server --model "$generative" --port "$port" \
    --gpu-memory-utilization 0.3 >"$out/vllm-server.log" 2>&1 &
server=$!
for _ in $(seq 120); do
    curl -sf "http://127.0.0.1:$port/v1/models" >/dev/null && break
    sleep 2
done
generative_table "backend = \"vllm-server\"
base_url = \"http://127.0.0.1:$port/v1\"
model = \"$generative\"" >"$work/gen-server.toml"
run $deid bench generative --config "$work/gen-server.toml" --notes 50
