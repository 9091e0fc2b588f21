/// A setup step of a test failed (a file not made, a child process not started).
package struct TestSetupError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
