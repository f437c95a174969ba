# VisionTasks: `make demo` and `make test` set up what is missing, fetch the models and run.
SWIFT ?= swift

.PHONY: demo test setup models build release clean loadtest

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
# Then the browser test (chromium + Selenium) and a 15-second loopback load test of
# `vision-tasks serve`; `make loadtest` runs the full 60-second load and the latency figures.
LOAD_SECONDS ?= 15

test: setup models
	$(SWIFT) build --build-tests
	python3 tools/check_test_run.py -- $(SWIFT) test --skip-build
	SWIFT=$(SWIFT) bash tools/check_skip_check.sh
	python3 tools/browser_test.py .build/debug/vision-tasks
	python3 tools/load_test.py --duration $(LOAD_SECONDS) --binary .build/debug/vision-tasks

loadtest: setup models release
	python3 tools/load_test.py --duration 60 --binary .build/release/vision-tasks
	python3 tools/load_test.py --bench --duration 20 --binary .build/release/vision-tasks

demo: setup models release
	@bash tools/demo.sh

clean:
	rm -rf .build demo-output
