package io.cctflow.standalone.ui;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Function;
import javax.imageio.ImageIO;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium driven by Debian's chromedriver, both by explicit path so Selenium
 * Manager never downloads a browser or driver; a fresh profile directory per browser.
 */
final class Browser implements AutoCloseable {
    static final Path CHROMIUM = Path.of(System.getProperty("cctflow.chromium", "/usr/bin/chromium"));
    static final Path CHROMEDRIVER = Path.of(System.getProperty("cctflow.chromedriver", "/usr/bin/chromedriver"));

    final ChromeDriver driver;
    private final Path profile;

    Browser(int width, int height) {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            throw new IllegalStateException("browser tests need Debian's chromium and chromium-driver at " + CHROMIUM
                    + " and " + CHROMEDRIVER + ": apt-get install chromium chromium-driver");
        }
        try {
            profile = Files.createTempDirectory("cctflow-chromium");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--user-data-dir=" + profile, "--window-size=" + width + "," + height,
                "--force-device-scale-factor=1");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        driver = new ChromeDriver(service, options);
    }

    /** Waits up to 30 s for a condition, naming it on time-out. */
    <T> T until(String what, Function<WebDriver, T> condition) {
        return new WebDriverWait(driver, Duration.ofSeconds(30)).withMessage(what).until(condition);
    }

    Object js(String script, Object... args) {
        return driver.executeScript(script, args);
    }

    /** Saves a screenshot and returns how many distinct colours it has (a blank page has one or two). */
    int screenshot(Path file) {
        byte[] png = driver.getScreenshotAs(OutputType.BYTES);
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, png);
            BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
            Set<Integer> colours = new HashSet<>();
            for (int y = 0; y < image.getHeight(); y += 3) {
                for (int x = 0; x < image.getWidth(); x += 3) {
                    colours.add(image.getRGB(x, y));
                }
            }
            return colours.size();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        driver.quit();
        try (var files = Files.walk(profile)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temp directory left behind is harmless
        }
    }
}
