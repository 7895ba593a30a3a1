import FetchCore
import Testing

struct ResultTextTests {
    @Test(arguments: [(2.5, 1, "2.5"), (-3.14159, 3, "-3.142"), (7, 0, "7"), (-0.04, 1, "0.0"), (0.05, 2, "0.05"),
                      (123_456_789.125, 2, "123456789.13")] as [(Double, Int, String)])
    func aNumberIsWrittenWithItsDigitsWhateverTheLocale(x: Double, digits: Int, text: String) {
        #expect(ResultText.fixed(x, digits) == text)
    }

    /// A plan's reasons write the day's price, which grows without bound as the budget runs
    /// out: a value past what an Int64 holds once crashed a plan.
    @Test(arguments: [(1e20, "1e+20"), (-1e300, "-1e+300"), (.infinity, "inf"), (-.infinity, "-inf"), (.nan, "nan")]
          as [(Double, String)])
    func aNumberPastWhatAnInt64HoldsIsWrittenNotTrapped(x: Double, text: String) {
        #expect(ResultText.fixed(x, 2) == text)
    }
}
