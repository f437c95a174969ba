# VisionTasks: `make demo` and `make test` set up what is missing, fetch the models and run.
SWIFT ?= swift

.PHONY: demo test setup models build release clean

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
	python3 examples/spark/test_local.py --tool $$($(SWIFT) build --show-bin-path)/vision-tasks

demo: setup models release
	@bash tools/demo.sh

clean:
	rm -rf .build demo-output
