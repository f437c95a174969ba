@_exported import enum VisionCore.BackgroundEffect
@_exported import struct VisionCore.FloatPlane
@_exported import struct VisionCore.FrameContext
// What `import VisionTasks` brings in besides the tasks themselves.
@_exported import enum VisionCore.I420Packing
@_exported import struct VisionCore.ImageDecodingOptions
@_exported import enum VisionCore.ImageOrientation
@_exported import struct VisionCore.MPImage
@_exported import enum VisionCore.PixelFormat
@_exported import struct VisionCore.YUVColorSpace
@_exported import enum VisionCore.YUVFormat
@_exported import enum VisionErrors.TasksErrorCode
@_exported import enum VisionErrors.VisionTasksError
