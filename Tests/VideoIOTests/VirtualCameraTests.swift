import Foundation
import Testing
import VisionErrors

@testable import VideoIO

/// The virtual camera's ffmpeg command, its choice of pixel format, and its refusals of what is not a
/// V4L2 output (the machines running the tests cannot load v4l2loopback).
@Suite struct VirtualCameraTests {
    @Test func ffmpegTakesI420OnStdinAndWritesTheDeviceWithV4L2() {
        let arguments = VirtualCamera.ffmpegArguments(
            device: "/dev/video9", width: 1279, height: 720, frameRate: "30000/1001", format: .yuyv422)
        #expect(
            arguments == [
                "-hide_banner", "-nostats", "-loglevel", "error", "-y",
                "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "1280x720", "-framerate", "30000/1001", "-i", "pipe:0",
                "-pix_fmt", "yuyv422", "-f", "v4l2", "/dev/video9",
            ])
        let planar = VirtualCamera.ffmpegArguments(
            device: "/dev/video2", width: 640, height: 480, frameRate: "30", format: .yuv420p)
        #expect(Array(planar.suffix(5)) == ["-pix_fmt", "yuv420p", "-f", "v4l2", "/dev/video2"])
    }

    @Test func theFormatIsYUYVUnlessTheDeviceListsOnlyYU12() throws {
        let (yuyv, yu12, mjpg) = (
            VirtualCamera.PixelFormat.yuyv422.fourCC, VirtualCamera.PixelFormat.yuv420p.fourCC, UInt32(0x4750_4A4D)
        )
        #expect(yuyv == 0x5659_5559 && yu12 == 0x3231_5559)
        #expect(try VirtualCamera.pixelFormat(device: "d", formats: []) == .yuyv422)
        #expect(try VirtualCamera.pixelFormat(device: "d", formats: [yu12, yuyv]) == .yuyv422)
        #expect(try VirtualCamera.pixelFormat(device: "d", formats: [mjpg, yu12]) == .yuv420p)
        #expect(throws: VisionTasksError.invalidVideo("/dev/video7 takes neither YUYV nor YU12 frames (it lists MJPG)"))
        {
            try VirtualCamera.pixelFormat(device: "/dev/video7", formats: [mjpg])
        }
    }

    @Test func whatIsNotAV4L2OutputIsRefusedWithTheSetupLine() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-camera-\(getpid())")
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let pipe = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-camera-pipe-\(getpid())")
        try #require(mkfifo(pipe.path, 0o600) == 0)
        defer { try? FileManager.default.removeItem(at: pipe) }
        for (device, says) in [
            ("/dev/video-missing-\(getpid())", "does not exist"), (file.path, "is a file, not a video device"),
            (pipe.path, "is a pipe, not a video device"), ("/dev/null", "is not a V4L2 video device"),
        ] {
            do {
                _ = try VirtualCamera.check(device: device)
                Issue.record("\(device) was accepted")
            } catch let VisionTasksError.invalidVideo(message) {
                #expect(message.hasPrefix(device) && message.contains(says), "\(message)")
                #expect(message.contains(VirtualCamera.setupLine), "\(message)")
            }
        }
    }
}
