# VisionTasks: `make demo` and `make test` set up what is missing, fetch the models and run.
SWIFT ?= swift

.PHONY: demo test setup models build release bench clean

setup:
	@bash tools/setup.sh

models: setup
	@python3 tools/fetch_models.py

build: setup
	$(SWIFT) build

release: setup
	$(SWIFT) build -c release

# The run fails on any skipped test or parameterised test without cases (tools/check_test_run.py),
# and tools/check_skip_check.sh proves that check fails on a corrupted reference file.
test: setup models
	$(SWIFT) build --build-tests
	python3 tools/check_test_run.py -- $(SWIFT) test --skip-build
	SWIFT=$(SWIFT) bash tools/check_skip_check.sh

# Every speed and memory comparison with LiteRT and MediaPipe in one run, one table of ratios
# (tools/bench.py; about 15 minutes on an idle 2-core machine; BENCH_ARGS=--quick for a smoke run).
bench: setup models
	@python3 -c "import mediapipe, ai_edge_litert" 2>/dev/null || python3 -m pip install -q mediapipe==1.2.2 ai-edge-litert==2.3.0
	$(SWIFT) build -c release --product vision-tasks
	$(SWIFT) build -c release --product vision-tasks-bench
	python3 tools/bench.py $(BENCH_ARGS)

demo: setup models release
	@bash tools/demo.sh

clean:
	rm -rf .build demo-output
