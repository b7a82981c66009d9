package io.belfry.web.console;

import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import org.openqa.selenium.By;
import org.openqa.selenium.ElementNotInteractableException;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium driven through its chromedriver (no driver or browser is downloaded:
 * both paths are given), with the console's common gestures: log in, type into a Vaadin field,
 * click a button by its text, wait, take a screenshot. Public, in the web module's test jar, for
 * the cluster tests' look at the console of a live cluster.
 */
public final class Browser implements AutoCloseable {

  public static final String CHROMIUM = "/usr/bin/chromium";
  public static final String CHROMEDRIVER = "/usr/bin/chromedriver";
  public static final Path SCREENSHOTS = Path.of("target", "screenshots");
  public static final Duration WAIT = Duration.ofSeconds(30);

  public final WebDriver driver;
  private final String base;
  private final Path profile;

  /** Whether Debian's chromium and chromedriver are installed ({@code .ci/run} installs them). */
  public static boolean available() {
    return new File(CHROMIUM).canExecute() && new File(CHROMEDRIVER).canExecute();
  }

  public Browser(URL base) throws IOException {
    this.base = base.toString();
    profile = Files.createTempDirectory("belfry-chromium");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM);
    options.addArguments(
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--window-size=1400,900",
        "--user-data-dir=" + profile);
    ChromeDriverService service =
        new ChromeDriverService.Builder().usingDriverExecutable(new File(CHROMEDRIVER)).build();
    driver = new ChromeDriver(service, options);
  }

  /**
   * A browser on {@code base}; the test is skipped, with a notice, where Chromium is missing
   * (.ci/run installs it), rather than failing the whole build.
   */
  public static Browser openOrSkip(URL base) throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        available(),
        "browser tests need Debian's chromium and chromium-driver (apt-get install -y chromium"
            + " chromium-driver); .ci/run installs them");
    return new Browser(base);
  }

  public void open(String route) {
    driver.get(base + route);
    awaitVaadin();
  }

  public void login(String user, String password) {
    open("login");
    WebElement form = await(By.tagName("vaadin-login-form"));
    form.findElement(By.cssSelector("input[name='username']")).sendKeys(user);
    form.findElement(By.cssSelector("input[name='password']")).sendKeys(password);
    form.findElement(By.cssSelector("vaadin-button[slot='submit']")).click();
    new WebDriverWait(driver, WAIT).until(d -> !d.getCurrentUrl().contains("login"));
    awaitVaadin();
  }

  public WebElement await(By by) {
    return new WebDriverWait(driver, WAIT).until(ExpectedConditions.presenceOfElementLocated(by));
  }

  public void awaitText(String text) {
    new WebDriverWait(driver, WAIT)
        .until(d -> ((String) js("return document.body.innerText")).contains(text));
  }

  public boolean hasText(String text) {
    return ((String) js("return document.body.innerText")).contains(text);
  }

  /** Waits until the Vaadin field with this id is marked invalid. */
  void awaitInvalid(String fieldId) {
    WebElement field = await(By.id(fieldId));
    new WebDriverWait(driver, WAIT).until(d -> field.getAttribute("invalid") != null);
  }

  /** Types into the Vaadin field with this id (its slotted native input). */
  void type(String fieldId, String text) {
    WebElement input = await(By.cssSelector("#" + fieldId + " input, #" + fieldId + " textarea"));
    input.clear();
    input.sendKeys(text);
    js("arguments[0].dispatchEvent(new Event('change', {bubbles: true}))", input);
  }

  void click(String id) {
    await(By.id(id)).click();
  }

  /** Clicks the first visible Vaadin button or radio button whose text is {@code text}. */
  void clickText(String tag, String text) {
    new WebDriverWait(driver, WAIT)
        .until(
            d -> {
              try {
                for (WebElement candidate : d.findElements(By.tagName(tag))) {
                  if (candidate.isDisplayed() && candidate.getText().trim().equals(text)) {
                    js(
                        "arguments[0].scrollIntoView({block: 'center', inline: 'center'})",
                        candidate);
                    candidate.click();
                    return true;
                  }
                }
              } catch (StaleElementReferenceException e) {
                // the grid re-rendered its rows under us: look again
              }
              return false;
            });
  }

  /**
   * Clicks the grid button whose accessible name is {@code label} ("Edit default/invoice-42") until
   * {@code shows} appears on the page. The grid re-renders its rows whenever a filter's value
   * arrives, and a click on a row that is being replaced is lost: so look the button up again and
   * click again rather than trusting one click.
   */
  void clickRowButtonUntil(String label, String shows) {
    By button = By.cssSelector("vaadin-button[aria-label='" + label.replace("'", "\\'") + "']");
    new WebDriverWait(driver, WAIT)
        .until(
            d -> {
              if (hasText(shows)) {
                return true;
              }
              try {
                for (WebElement candidate : d.findElements(button)) {
                  if (candidate.isDisplayed()) {
                    js("arguments[0].scrollIntoView({block: 'center'})", candidate);
                    candidate.click();
                    awaitVaadin();
                    break;
                  }
                }
              } catch (StaleElementReferenceException | ElementNotInteractableException e) {
                // replaced, not laid out yet, or covered (a subclass) while the grid re-renders:
                // the next
                // round looks the button up again
              }
              return hasText(shows);
            });
  }

  /** Waits until the grid shows a row for this reminder (its History button). */
  void awaitRow(String namespaceAndKey) {
    await(By.cssSelector("vaadin-button[aria-label='History " + namespaceAndKey + "']"));
  }

  public Object js(String script, Object... args) {
    return ((JavascriptExecutor) driver).executeScript(script, args);
  }

  public void awaitVaadin() {
    new WebDriverWait(driver, WAIT)
        .until(
            d ->
                Boolean.TRUE.equals(
                    js(
                        "return !!window.Vaadin && !!window.Vaadin.Flow && Object.values(window.Vaadin.Flow.clients || {})"
                            + ".every(c => !c.isActive || !c.isActive())")));
  }

  public Path screenshot(String name) throws IOException {
    Files.createDirectories(SCREENSHOTS);
    File shot = ((org.openqa.selenium.TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
    Path target = SCREENSHOTS.resolve(name + ".png");
    Files.copy(shot.toPath(), target, StandardCopyOption.REPLACE_EXISTING);
    return target;
  }

  @Override
  public void close() {
    driver.quit();
    // the throwaway profile: left behind, every test run kept some megabytes in /tmp
    try (var files = Files.walk(profile)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      // best effort: a profile left in /tmp is harmless
    }
  }
}
