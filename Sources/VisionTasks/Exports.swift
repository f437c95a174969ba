// What `import VisionTasks` brings in besides the tasks themselves.
@_exported import enum TFLite.VisionTasksError
